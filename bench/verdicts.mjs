#!/usr/bin/env node
// Verdict quality of the blocking safety checks on skills the rule authors did not tune on
// (issue 39, item 4), beside the tuning part.
//
//   node bench/verdicts.mjs [--heldout DIR] [--fresh DIR] [--fresh2 DIR] [--no-write] [--stub]
//
// DIR holds one folder per public repository, `<owner>+<name>`, each the `git archive` of one
// commit with that commit in a file COMMIT (kept outside this repository; see bench/README.md).
// Every folder holding a SKILL.md is linted by the BUILT CLI (`skillsmith lint --json
// --no-cache`), and every location of every blocking finding is judged by the hand-read
// labels of bench/heldout-verdicts.json (key repo@commit/skill/check/file/line). Real
// installer pipelines are found by a grep independent of the rules (PIPELINE below), judged
// by hand in the same file, and recall is the share remote-exec reports at their line. The
// tuning part (real-skills k-dense-scientific-skills) and the real-skills held-out part
// (mattpocock-skills, obra-superpowers) are linted the same way and judged by
// tests/corpus/safety-verdicts.json. A finding or pipeline without a label is printed (with
// --stub, as JSON to fill in), the run exits 1 and bench/RESULTS.md is left alone.
// --fresh DIR is a second folder of the same layout, measured and reported as its own part
// (status "fresh" in the labels): repositories chosen after the rules were tuned on the
// --heldout ones, which nobody reads to change a rule (spec D264). --fresh2 DIR is a third such
// folder (status "fresh-2"), chosen once the rule authors had read the first fresh part's false
// alarms (spec D265).

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { failer, ROOT } from './lib/env.mjs';
import { writeResultsSection } from './results-file.mjs';

const SKILLSMITH = join(ROOT, 'bin', 'skillsmith.cjs');
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'real-skills');
const LABELS = join(ROOT, 'bench', 'heldout-verdicts.json');
const REAL_VERDICTS = join(ROOT, 'tests', 'corpus', 'safety-verdicts.json');
const BEGIN = '<!-- bench:verdicts:begin -->';
const END = '<!-- bench:verdicts:end -->';
/** The parts nobody tunes on, each its own folder, label status and bench/RESULTS.md section. */
const FRESH_PARTS = [
  { flag: '--fresh', status: 'fresh', marker: 'verdicts-fresh', title: 'fresh held-out', spec: 'D264' },
  { flag: '--fresh2', status: 'fresh-2', marker: 'verdicts-fresh-2', title: 'fresh held-out, round two', spec: 'D265' },
];
const BLOCKING = ['visible-text', 'dynamic-context', 'remote-exec', 'secrets', 'mcp'];
const TUNING = ['k-dense-scientific-skills'];
const HELD_OUT_REAL = ['mattpocock-skills', 'obra-superpowers'];
/** Download piped into a shell or PowerShell's iex, on one line: the installer shapes, read without the rules. */
const PIPELINE =
  /\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n]*\|\s*(?:iex|Invoke-Expression)\b|\bsh\s+<\(\s*(?:curl|wget)\b|\bsh\s+-c\s+"\$\((?:curl|wget)\b/;
/** Characters that render as nothing: spelled out, so the labels file shows them and carries none. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;
const fail = failer('verdicts');

const opts = { heldout: undefined, fresh: {}, write: true, stub: false };
for (let i = 2; i < process.argv.length; i++) {
  const freshPart = FRESH_PARTS.find((p) => p.flag === process.argv[i]);
  if (process.argv[i] === '--heldout') opts.heldout = process.argv[++i];
  else if (freshPart) opts.fresh[freshPart.status] = process.argv[++i];
  else if (process.argv[i] === '--no-write') opts.write = false;
  else if (process.argv[i] === '--stub') opts.stub = true;
  else fail(`unknown argument ${process.argv[i]}`);
}
if (!opts.heldout && !Object.keys(opts.fresh).length)
  fail('usage: node bench/verdicts.mjs [--heldout DIR] [--fresh DIR] [--fresh2 DIR] [--no-write] [--stub]');
for (const dir of [opts.heldout, ...Object.values(opts.fresh)])
  if (dir && !existsSync(dir)) fail(`${dir}: no such folder`);
if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) fail('not built — run npm run build first');
if (!existsSync(CORPUS)) fail(`corpus not found at ${CORPUS}`);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return fail(`${file}: ${e.message}`);
  }
}

/** Every folder holding SKILL.md at or below `dir`, in name order; .git and node_modules skipped. */
function skillDirs(dir, out = []) {
  const names = readdirSync(dir).sort();
  if (names.includes('SKILL.md')) out.push(dir);
  for (const n of names) {
    if (n === '.git' || n === 'node_modules') continue;
    const p = join(dir, n);
    if (lstatSync(p).isDirectory()) skillDirs(p, out);
  }
  return out;
}

function filesUnder(dir, out = []) {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    const st = lstatSync(p);
    if (st.isDirectory() && n !== '.git' && n !== 'node_modules') filesUnder(p, out);
    else if (st.isFile()) out.push(p);
  }
  return out;
}

/** Lints `rels` (paths relative to `cwd`) in batches; returns the reports in order. */
function lint(cwd, rels) {
  const reports = [];
  for (let i = 0; i < rels.length; i += 150) {
    const batch = rels.slice(i, i + 150);
    const r = spawnSync(process.execPath, [SKILLSMITH, 'lint', '--json', '--no-cache', ...batch], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.status !== 0 && r.status !== 1) fail(`skillsmith lint exited ${r.status} in ${cwd}: ${r.stderr.trim()}`);
    const out = JSON.parse(r.stdout);
    if (out.length !== batch.length) fail(`skillsmith lint reported ${out.length} skills for ${batch.length} paths`);
    reports.push(...out);
  }
  return reports;
}

/** The text a location covers on its first line, at most 80 characters. */
function snippet(skillDir, loc) {
  const file = join(skillDir, loc.file);
  if (loc.line < 1 || !existsSync(file)) return '';
  const line = readFileSync(file, 'utf8').split('\n')[loc.line - 1] ?? '';
  const end = loc.endLine === loc.line ? loc.endColumn - 1 : line.length;
  const text = line
    .slice(loc.column - 1, Math.max(end, loc.column - 1))
    .trim()
    .replace(INVISIBLE, (c) => `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Every location of every blocking finding: { skill, check, file, line, snippet }. */
function blockingFindings(report, skill, skillDir) {
  const found = [];
  for (const c of report.checks) {
    if (c.status !== 'fail' || !BLOCKING.includes(c.id)) continue;
    const locs = c.locations?.length ? c.locations : [{ file: '-', line: 0 }];
    for (const l of locs) found.push({ skill, check: c.id, file: l.file, line: l.line, snippet: snippet(skillDir, l) });
  }
  return found;
}

function emptyTally() {
  return { trueFindings: 0, falseAlarms: 0, unjudged: [] };
}

/** The real-skills part made of `repos`, judged by tests/corpus/safety-verdicts.json. */
function realPart(repos) {
  const judged = new Map(
    readJson(REAL_VERDICTS).entries.map((v) => [`${v.skill}  ${v.check}  ${v.file}:${v.line}`, v]),
  );
  const dirs = repos.flatMap((r) => skillDirs(join(CORPUS, r)));
  const rels = dirs.map((d) => relative(CORPUS, d));
  const tally = { skills: dirs.length, ...emptyTally(), everTrue: 0, everFalse: 0 };
  lint(CORPUS, rels).forEach((report, i) => {
    for (const f of blockingFindings(report, rels[i], dirs[i])) {
      const v = judged.get(`${f.skill}  ${f.check}  ${f.file}:${f.line}`);
      if (!v) tally.unjudged.push(f);
      else if (v.verdict) tally.trueFindings++;
      else tally.falseAlarms++;
    }
  });
  for (const v of judged.values()) {
    if (!repos.some((r) => v.skill.startsWith(`${r}/`))) continue;
    if (v.verdict) tally.everTrue++;
    else tally.everFalse++;
  }
  return tally;
}

/** One repository of folder `base`: its findings judged, its installer pipelines found and judged. */
function heldOutRepo(base, name, labels) {
  const root = join(base, name);
  const commitFile = join(root, 'COMMIT');
  if (!existsSync(commitFile)) fail(`${commitFile}: missing — write the archived commit there`);
  const commit = readFileSync(commitFile, 'utf8').trim().slice(0, 12);
  const dirs = skillDirs(root);
  const rels = dirs.map((d) => relative(base, d));
  const repo = { name, commit, skills: dirs.length, findings: [], pipelines: [], byCheck: {}, ...emptyTally() };
  const reported = new Set();
  lint(base, rels).forEach((report, i) => {
    const skill = relative(root, dirs[i]);
    const seen = new Set();
    for (const f of blockingFindings(report, skill, dirs[i])) {
      const key = `${name}@${commit}/${skill}/${f.check}/${f.file}/${f.line}`;
      // several matches on one line are one finding, as in tests/corpus/safety-verdicts.json
      if (seen.has(key)) continue;
      seen.add(key);
      const label = labels.findings[key];
      const row = (repo.byCheck[f.check] ??= emptyTally());
      if (f.check === 'remote-exec') reported.add(`${skill}/${f.file}/${f.line}`);
      repo.findings.push({ key, ...f, verdict: label?.verdict });
      for (const t of [repo, row]) {
        if (label === undefined) t.unjudged.push({ key, snippet: f.snippet });
        else if (label.verdict) t.trueFindings++;
        else t.falseAlarms++;
      }
    }
  });
  for (const dir of dirs) {
    const skill = relative(root, dir);
    for (const file of filesUnder(dir)) {
      const bytes = readFileSync(file);
      if (bytes.length > 4 * 1024 * 1024 || bytes.subarray(0, 8192).includes(0)) continue;
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((text, i) => {
          if (!PIPELINE.test(text)) return;
          const at = `${skill}/${relative(dir, file)}/${i + 1}`;
          const key = `${name}@${commit}/${at}`;
          const m = text.match(PIPELINE);
          const snip = text.slice(Math.max(0, m.index - 10), m.index + 70).trim();
          repo.pipelines.push({ key, snippet: snip, real: labels.pipelines[key]?.real, reported: reported.has(at) });
        });
    }
  }
  return repo;
}

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(0)} % (${n} of ${d})`);

const labels = readJson(LABELS);
/** The repositories of folder `base`, each required to carry one of `statuses` in the labels. */
function part(base, statuses) {
  if (!base) return [];
  const repos = readdirSync(base)
    .filter((n) => lstatSync(join(base, n)).isDirectory())
    .sort()
    .map((n) => heldOutRepo(base, n, labels));
  for (const r of repos) {
    r.status = labels.repos[r.name]?.status;
    if (!statuses.includes(r.status))
      fail(
        `bench/heldout-verdicts.json: repos.${r.name}.status must be one of ${statuses.join(', ')} (folder ${base})`,
      );
  }
  return repos;
}
const STATUSES = ['contaminated', 'possibly-seen', 'clean'];
const repos = part(opts.heldout, STATUSES);
const freshParts = FRESH_PARTS.filter((p) => opts.fresh[p.status]).map((p) => ({
  ...p,
  repos: part(opts.fresh[p.status], [p.status]),
}));
const tuning = opts.heldout ? realPart(TUNING) : undefined;
const heldOutReal = opts.heldout ? realPart(HELD_OUT_REAL) : undefined;

const unjudgedOf = (rs, prefix) => [
  ...rs.flatMap((r) => r.unjudged.map((u) => ({ kind: `${prefix}finding`, ...u }))),
  ...rs.flatMap((r) =>
    r.pipelines.filter((p) => p.real === undefined).map((p) => ({ kind: `${prefix}pipeline`, ...p })),
  ),
];
const unjudged = [
  ...unjudgedOf(repos, ''),
  ...freshParts.flatMap((p) => unjudgedOf(p.repos, `${p.status} `)),
  ...(opts.heldout ? [...tuning.unjudged, ...heldOutReal.unjudged] : []).map((u) => ({ kind: 'real-skills', ...u })),
];

const sum = (rs) =>
  rs.reduce(
    (t, r) => ({
      skills: t.skills + r.skills,
      trueFindings: t.trueFindings + r.trueFindings,
      falseAlarms: t.falseAlarms + r.falseAlarms,
      skillsBlocked: t.skillsBlocked + new Set(r.findings.map((f) => f.skill)).size,
      skillsFalselyBlocked:
        t.skillsFalselyBlocked +
        [...new Set(r.findings.map((f) => f.skill))].filter((s) =>
          r.findings.filter((f) => f.skill === s).every((f) => f.verdict === false),
        ).length,
    }),
    { skills: 0, trueFindings: 0, falseAlarms: 0, skillsBlocked: 0, skillsFalselyBlocked: 0 },
  );
const row = (part, repoList, t) =>
  `| ${part} | ${repoList} | ${t.skills} | ${t.trueFindings + t.falseAlarms} | ${t.trueFindings} | ${t.falseAlarms} | ${pct(t.trueFindings, t.trueFindings + t.falseAlarms)} |`;
const names = (rs) => rs.map((r) => r.name.replace('+', '/')).join(', ');
const realPipelines = (rs) => rs.flatMap((r) => r.pipelines).filter((p) => p.real === true);
const recallLines = (rs) => {
  const pipelines = realPipelines(rs);
  return [
    `Recall on real installer pipelines (download piped into a shell or \`iex\` on one line, found by`,
    `a grep independent of the rules and judged real by hand): remote-exec reports ${pct(pipelines.filter((p) => p.reported).length, pipelines.length)}.`,
  ];
};

/** Per-check precision, false alarms by reason and the per-repository table of `rs`. */
function detailTables(rs, precisionOf) {
  const checks = {};
  for (const r of rs) {
    for (const [id, t] of Object.entries(r.byCheck)) {
      const c = (checks[id] ??= { trueFindings: 0, falseAlarms: 0 });
      c.trueFindings += t.trueFindings;
      c.falseAlarms += t.falseAlarms;
    }
  }
  const falseByWhy = new Map();
  for (const f of rs.flatMap((r) => r.findings)) {
    if (f.verdict !== false) continue;
    const why = labels.findings[f.key].why;
    falseByWhy.set(why, (falseByWhy.get(why) ?? 0) + 1);
  }
  return [
    `| check | true | false alarms | precision (${precisionOf}) |`,
    '|---|---|---|---|',
    ...Object.entries(checks)
      .sort()
      .map(
        ([id, c]) =>
          `| ${id} | ${c.trueFindings} | ${c.falseAlarms} | ${pct(c.trueFindings, c.trueFindings + c.falseAlarms)} |`,
      ),
    '',
    '| false alarms, by the reason given in the labels | count |',
    '|---|---|',
    ...[...falseByWhy]
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .map(([why, n]) => `| ${why.replaceAll('|', '\\|')} | ${n} |`),
    '',
    '| repository @ commit | skills | true | false alarms | real pipelines (reported) | seen by the rule authors? |',
    '|---|---|---|---|---|---|',
    ...rs.map((r) => {
      const real = r.pipelines.filter((p) => p.real === true);
      return `| ${r.name.replace('+', '/')} @ ${r.commit} | ${r.skills} | ${r.trueFindings} | ${r.falseAlarms} | ${real.length} (${real.filter((p) => p.reported).length}) | ${r.status} |`;
    }),
    '',
  ];
}

const sections = [];
if (opts.heldout) {
  const total = sum(repos);
  const group = (status) => repos.filter((r) => r.status === status);
  sections.push([
    BEGIN,
    END,
    [
      BEGIN,
      '## Verdict quality (held-out)',
      '',
      `Measured by \`node bench/verdicts.mjs --heldout DIR\` on the built CLI. Each location of a blocking`,
      'finding is one finding, judged by hand in `bench/heldout-verdicts.json` (true: the text is the',
      'threat or leak the check names; false: a false alarm). Precision = true findings / all blocking',
      'findings.',
      '',
      '| part | repositories | skills | blocking findings | true | false alarms | precision |',
      '|---|---|---|---|---|---|---|',
      `| tuning (rule authors read it) | k-dense-scientific-skills | ${tuning.skills} | ${tuning.trueFindings + tuning.falseAlarms} | ${tuning.trueFindings} | ${tuning.falseAlarms} | ${pct(tuning.trueFindings, tuning.trueFindings + tuning.falseAlarms)}; before tuning ${pct(tuning.everTrue, tuning.everTrue + tuning.everFalse)} |`,
      `| held-out, real-skills | mattpocock-skills, obra-superpowers | ${heldOutReal.skills} | ${heldOutReal.trueFindings + heldOutReal.falseAlarms} | ${heldOutReal.trueFindings} | ${heldOutReal.falseAlarms} | ${pct(heldOutReal.trueFindings, heldOutReal.trueFindings + heldOutReal.falseAlarms)} |`,
      row('held-out, external, all', `${repos.length} public repositories (below)`, total),
      ...STATUSES.map((st) => row(`… of which ${st}`, names(group(st)), sum(group(st)))),
      '',
      `Refusals (skills with a blocking finding), external: ${total.skillsBlocked} of ${total.skills} skills, ${total.skillsFalselyBlocked} of them by false alarms only;`,
      `in the clean repositories: ${sum(group('clean')).skillsBlocked} of ${sum(group('clean')).skills}, ${sum(group('clean')).skillsFalselyBlocked} by false alarms only.`,
      ...recallLines(repos),
      '',
      ...detailTables(repos, 'external'),
      END,
    ].join('\n'),
  ]);
}
for (const { flag, status, marker, title, spec, repos: fresh } of freshParts) {
  const total = sum(fresh);
  const begin = `<!-- bench:${marker}:begin -->`;
  const end = `<!-- bench:${marker}:end -->`;
  sections.push([
    begin,
    end,
    [
      begin,
      `## Verdict quality (${title})`,
      '',
      `Measured by \`node bench/verdicts.mjs ${flag} DIR\` on the built CLI, the same way as the`,
      'held-out part above, on public repositories chosen after the rules were tuned on the parts',
      `before it and never read to change a rule (spec ${spec}; list and date in bench/README.md). Labels in`,
      `\`bench/heldout-verdicts.json\`, status \`${status}\`.`,
      '',
      '| part | repositories | skills | blocking findings | true | false alarms | precision |',
      '|---|---|---|---|---|---|---|',
      row(`held-out, ${status}`, names(fresh), total),
      '',
      `Refusals (skills with a blocking finding): ${total.skillsBlocked} of ${total.skills} skills, ${total.skillsFalselyBlocked} of them by false alarms only.`,
      ...recallLines(fresh),
      '',
      ...detailTables(fresh, status),
      end,
    ].join('\n'),
  ]);
}
for (const [, , text] of sections) console.log(`${text}\n`);

const measured = [...repos, ...freshParts.flatMap((p) => p.repos)];
const missed = realPipelines(measured).filter((p) => !p.reported);
if (missed.length)
  console.log(
    `real pipelines remote-exec does not report:\n${missed.map((p) => `  ${p.key}  ${p.snippet}`).join('\n')}\n`,
  );
const falseKeys = measured.flatMap((r) => r.findings.filter((f) => f.verdict === false));
if (falseKeys.length) console.log(`false alarms:\n${falseKeys.map((f) => `  ${f.key}  ${f.snippet}`).join('\n')}\n`);
if (unjudged.length) {
  console.log(`${unjudged.length} not judged yet (bench/heldout-verdicts.json, tests/corpus/safety-verdicts.json):`);
  if (opts.stub) console.log(JSON.stringify(unjudged, null, 2));
  else
    for (const u of unjudged)
      console.log(`  ${u.kind}  ${u.key ?? `${u.skill} ${u.check} ${u.file}:${u.line}`}  ${u.snippet}`);
  fail('judge every finding and pipeline first; bench/RESULTS.md not written');
}
if (opts.write) for (const [begin, end, text] of sections) writeResultsSection(begin, end, text);
