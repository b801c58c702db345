#!/usr/bin/env node
// Benchmark and census: the real-skills corpus (../shared/corpus/real-skills, 185 skills)
// installed into one project with every agent's marker, compiled by the built CLI.
//
//   node bench/real-skills.mjs [--runs N] [--install-runs N] [--no-install] [--no-default] [--no-write]
//
// Measures: compile wall time (fresh project, then a second compile that changes nothing);
// AGENTS.md bytes with bodies (no skill folder serves AGENTS.md's readers — what every
// project got before issue 13) and with the index (D55); skills broken on skill-folder
// targets and frontmatter keys lost, before (the SKILL.md-only emit: name + description, no
// bundled file) and after (measured on the compiled folders); and whether kitbash 0.24.1
// compiles the corpus at all. Then (bench/real-skills-install.mjs) the corpus installed and
// compiled by each tool, one install process per skill, side by side. Writes its own two
// sections of bench/RESULTS.md.

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { machine, failer } from './lib/env.mjs';
import { CORPUS, MARKERS, corpusSources, makeCorpusProject } from './lib/real-corpus.mjs';
import { installCorpusBench } from './real-skills-install.mjs';
import { median } from './lib/stats.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const SKILLSMITH = join(ROOT, 'bin', 'skillsmith.cjs');
const KITBASH = join(ROOT, 'node_modules', 'kitbash', 'dist', 'index.js');
const BEGIN = '<!-- bench:real-skills:begin -->';
const END = '<!-- bench:real-skills:end -->';
const INSTALL_BEGIN = '<!-- bench:real-skills-install:begin -->';
const INSTALL_END = '<!-- bench:real-skills-install:end -->';
const fail = failer('real-skills');

const opts = { runs: 3, installRuns: 3, install: true, withDefault: true, write: true };
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--runs') opts.runs = Number(process.argv[++i]);
  else if (process.argv[i] === '--install-runs') opts.installRuns = Number(process.argv[++i]);
  else if (process.argv[i] === '--no-install') opts.install = false;
  else if (process.argv[i] === '--no-default') opts.withDefault = false;
  else if (process.argv[i] === '--no-write') opts.write = false;
  else fail(`unknown argument ${process.argv[i]}`);
}
if (!existsSync(CORPUS)) fail(`corpus not found at ${CORPUS}`);
if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) fail('not built — run npm run build first');

const FOLDER_DIRS = ['.claude/skills', '.agents/skills', 'agent-plugin/skills'];

function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    for (const n of readdirSync(d).sort()) {
      const abs = join(d, n);
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isFile()) out.push(relative(dir, abs).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}
const frontmatter = (md) => {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(md);
  return m ? (parse(m[1]) ?? {}) : {};
};

const sources = corpusSources();
const makeProject = (markers) => makeCorpusProject(sources, markers);
function run(cli, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, 'compile'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, code: r.status, out: r.stdout, err: r.stderr };
}

// ---- census: before (SKILL.md only, name + description) and after (measured) ----
let referencing = 0;
let referencedFiles = 0;
let keysBefore = 0;
for (const s of sources) {
  const md = readFileSync(join(s.dir, 'SKILL.md'), 'utf8');
  const others = filesUnder(s.dir).filter((f) => f !== 'SKILL.md');
  const named = others.filter((f) => md.includes(f));
  if (named.length) referencing++;
  referencedFiles += named.length;
  keysBefore += Object.keys(frontmatter(md)).filter((k) => k !== 'name' && k !== 'description').length;
}

// ---- timing: fresh compile and the no-op second compile, every marker present ----
const first = [];
const second = [];
let project;
for (let i = 0; i < opts.runs; i++) {
  if (project) rmSync(dirname(project), { recursive: true, force: true });
  project = makeProject(MARKERS);
  const a = run(SKILLSMITH, project);
  if (a.code !== 0) fail(`skillsmith compile exited ${a.code}: ${a.err.split('\n')[0]}`);
  first.push(a.ms);
  const b = run(SKILLSMITH, project);
  if (b.code !== 0 || /^(→|✂)/m.test(b.out)) fail('the second compile was not a no-op');
  second.push(b.ms);
}

// ---- after: measured on the compiled folders of the last project ----
let brokenAfter = 0;
let missingAfter = 0;
let keysLostAfter = 0;
for (const dir of FOLDER_DIRS) {
  for (const s of sources) {
    const out = join(project, dir, s.name);
    const missing = filesUnder(s.dir).filter(
      (f) =>
        f !== 'SKILL.md' &&
        !(
          existsSync(join(out, f)) &&
          readFileSync(join(out, f)).equals(readFileSync(join(s.dir, f))) &&
          (statSync(join(out, f)).mode & 0o111) === (statSync(join(s.dir, f)).mode & 0o111)
        ),
    );
    if (missing.length) brokenAfter++;
    missingAfter += missing.length;
    const src = frontmatter(readFileSync(join(s.dir, 'SKILL.md'), 'utf8'));
    const got = frontmatter(readFileSync(join(out, 'SKILL.md'), 'utf8'));
    for (const [k, v] of Object.entries(src))
      if (k !== 'name' && JSON.stringify(got[k]) !== JSON.stringify(v)) keysLostAfter++;
  }
}
const indexBytes = statSync(join(project, 'AGENTS.md')).size;
rmSync(dirname(project), { recursive: true, force: true });

// AGENTS.md with bodies: the same skills where no skill folder serves AGENTS.md's readers.
const bodiesProject = makeProject(['.claude', '.cursor']);
const bodies = run(SKILLSMITH, bodiesProject);
if (bodies.code !== 0) fail(`skillsmith compile (bodies) exited ${bodies.code}`);
const bodyBytes = statSync(join(bodiesProject, 'AGENTS.md')).size;
rmSync(dirname(bodiesProject), { recursive: true, force: true });

// kitbash on the same corpus: does it compile at all?
let kitbash = 'not installed';
if (existsSync(KITBASH)) {
  const kp = makeProject(MARKERS);
  const k = run(KITBASH, kp);
  kitbash =
    k.code === 0
      ? `exit 0 in ${Math.round(k.ms)} ms`
      : `exit ${k.code} — refuses the whole project (${
          (k.err || k.out)
            .trim()
            .split('\n')
            .find((l) => l.trim()) ?? 'no message'
        })`;
  rmSync(dirname(kp), { recursive: true, force: true });
}

const ms = (xs) =>
  `${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))})`;
const kb = (n) => `${(n / 1024).toFixed(1)} KiB (${n} B)`;
const lines = [
  BEGIN,
  '## Real-skills corpus: compile and AGENTS.md (issue 13)',
  '',
  `\`node bench/real-skills.mjs --runs ${opts.runs}\` — ${sources.length} skills from ../shared/corpus/real-skills, installed into one project with every agent marker (${MARKERS.join(', ')}); the built CLI, on ${machine()}; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| measure | before (SKILL.md-only emit) | after |',
  '|---|---|---|',
  `| skills broken on skill-folder targets (a bundled file missing, per target folder) | ${referencing} skills name a bundled file in SKILL.md (${referencedFiles} files), none delivered | ${brokenAfter} (${missingAfter} files missing) across ${FOLDER_DIRS.join(', ')} |`,
  `| frontmatter keys lost (per skill, per target folder) | ${keysBefore} keys beyond name/description, × ${FOLDER_DIRS.length} folders | ${keysLostAfter} |`,
  `| AGENTS.md | ${kb(bodyBytes)} with every body | ${kb(indexBytes)} as an index (D55) |`,
  `| compile, fresh project | — | ${ms(first)} |`,
  `| second compile (no change) | — | ${ms(second)} |`,
  `| kitbash 0.24.1 on the same project | ${kitbash} | — |`,
  '',
  'Before is derived from the old emit model (one SKILL.md with `name` and `description`; bare skills never got bundled files), counting files whose relative path SKILL.md spells; after is measured on the compiled folders (bytes and execute bits compared with the source).',
  END,
];
const section = lines.join('\n');
console.log(section);
if (opts.write) writeResultsSection(BEGIN, END, section);

if (opts.install && existsSync(KITBASH)) {
  const body = installCorpusBench({
    root: CORPUS,
    sources,
    markers: MARKERS,
    skillsmith: SKILLSMITH,
    kitbash: KITBASH,
    runs: opts.installRuns,
    withDefault: opts.withDefault,
    fail,
  });
  const installSection = [
    INSTALL_BEGIN,
    '## Real-skills corpus: installed and compiled, Skillsmith against kitbash',
    '',
    `\`node bench/real-skills.mjs --install-runs ${opts.installRuns}\` — ${machine()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    '',
    ...body,
    INSTALL_END,
  ].join('\n');
  console.log(installSection);
  if (opts.write) writeResultsSection(INSTALL_BEGIN, INSTALL_END, installSection);
}
