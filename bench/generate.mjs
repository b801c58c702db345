#!/usr/bin/env node
// Deterministic benchmark-project generator: a kitbash project with N installed skills
// under .kitbash/skills/ (default 1,000), shaped like a large real-world skill collection.
//
//   node bench/generate.mjs [--out DIR] [--count N] [--seed S]
//
// Node built-ins only. The same seed always yields byte-identical files.
//
// Shape (per skill, drawn from a seeded PRNG):
//   - SKILL.md size log-uniform between 200 B and 80 KB
//   - ~60% manifested (skill.toml + SKILL.md), ~40% bare (SKILL.md with name/description frontmatter)
//   - ~20% ship scripts/ with one or two small shell/python scripts
//   - some use {{prompt.x}} (prompts/x.md), {{artifact.plan}}, {{lore.conventions}}
//   - budgets fit the body: clamp(ceil(tokens * 1.3), 50, 20000), tokens = ceil(chars / 4)
//   - ~2% carry something a linter should flag (budget overrun, over-long standing stub,
//     a download-and-execute line, an injection-style phrase)

import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from './lib/stats.mjs';
import {
  VERBS,
  OBJECTS,
  QUALIFIERS,
  ECOSYSTEMS,
  GENERIC_FILES,
  GENERIC_COMMANDS,
  ECOSYSTEM_OF_QUALIFIER,
  ECOSYSTEM_OF_OBJECT,
  PROMPT_NAMES,
  cap,
} from './lib/vocabulary.mjs';
import {
  manifestDescription,
  buildBodyParts,
  resolveBody,
  standingStub,
  promptText,
  shellScript,
  pythonScript,
  REMOTE_EXEC_LINES,
  INJECTION_PHRASES,
  MAX_BYTES,
} from './lib/skill-body.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const DEFAULT_OUT = join(HERE, 'work', 'project');
const MIN_BYTES = 200;
const MAX_TOKENS = 20_000;

// ---------------------------------------------------------------------------
// PRNG (mulberry32, bench/lib/stats.mjs) and helpers

function makeRandom(seed) {
  const next = mulberry32(seed);
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    sample: (arr, n) => {
      const copy = arr.slice();
      const out = [];
      while (out.length < n && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
      return out;
    },
    shuffle: (arr) => r.sample(arr, arr.length),
  };
  return r;
}

const tokensOf = (text) => Math.ceil(text.length / 4);
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

// ---------------------------------------------------------------------------
// Skill generation

function makeNames(r, count) {
  const names = new Set();
  const out = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 100) {
    const verb = r.pick(VERBS);
    const obj = r.pick(OBJECTS);
    let name = `${verb.base}-${obj.slug}`;
    if (names.has(name) || r.chance(0.15)) name = `${name}-${r.pick(QUALIFIERS)}`;
    if (names.has(name) || name.length > 41) continue;
    names.add(name);
    out.push({ name, verb, obj });
  }
  if (out.length < count) throw new Error(`could only derive ${out.length} unique skill names`);
  return out;
}

function tomlString(s) {
  return JSON.stringify(s);
}

function tomlArray(items) {
  return `[${items.map(tomlString).join(', ')}]`;
}

function generateSkill(r, spec, fault) {
  const { name, verb, obj, manifested } = spec;
  const ctx = {
    name,
    verb,
    obj,
    title: `${cap(verb.words ?? verb.base)} ${obj.phrase}`,
    templates: [],
    scripts: [],
  };
  const qualifier = name.startsWith(`${verb.base}-${obj.slug}-`) ? name.slice(`${verb.base}-${obj.slug}-`.length) : '';
  const eco =
    ECOSYSTEM_OF_QUALIFIER[qualifier] ??
    ECOSYSTEM_OF_OBJECT[obj.slug] ??
    r.pick(['node', 'node', 'node', 'python', 'python', 'go', 'rust', 'infra']);
  ctx.files = [...GENERIC_FILES, ...ECOSYSTEMS[eco].files];
  ctx.commands = [...GENERIC_COMMANDS, ...ECOSYSTEMS[eco].commands, ...ECOSYSTEMS[eco].commands];
  const files = {};

  // scripts/
  if (r.chance(0.2)) {
    const n = r.int(1, 2);
    const kinds = r.sample(['sh', 'py'], n);
    for (const k of kinds) {
      const file =
        k === 'sh' ? r.pick(['check.sh', 'run.sh', 'collect.sh']) : r.pick(['report.py', 'scan.py', 'collect.py']);
      ctx.scripts.push({ file });
      files[`scripts/${file}`] = k === 'sh' ? shellScript(r, ctx) : pythonScript(r, ctx);
    }
  }

  // templates (manifested skills only: bare SKILL.md files follow the plain Agent Skills convention)
  const prompts = {};
  if (manifested) {
    if (r.chance(0.18)) {
      for (const p of r.sample(PROMPT_NAMES, r.int(1, 2))) {
        prompts[p] = promptText(r, ctx);
        files[`prompts/${p}.md`] = prompts[p];
        ctx.templates.push({ kind: 'prompt', name: p });
      }
    }
    if (r.chance(0.12)) ctx.templates.push({ kind: 'artifact', name: 'plan' });
    if (r.chance(0.12)) ctx.templates.push({ kind: 'lore', name: 'conventions' });
  }

  let target = Math.round(Math.exp(Math.log(MIN_BYTES) + r.next() * (Math.log(MAX_BYTES) - Math.log(MIN_BYTES))));
  if (fault === 'budget') target = Math.max(target, 2000); // an overrun needs a body well above the 50-token floor
  const descSentences =
    fault === 'standing' ? r.int(14, 20) : target < 600 ? 1 : target < 3000 ? r.int(1, 3) : r.int(2, 4);
  const parts = buildBodyParts(r, ctx, target, descSentences);

  // Each prompt file gets its own section, placed after the procedure (or at the end).
  for (const t of ctx.templates) {
    if (t.kind !== 'prompt') continue;
    const heading = cap(t.name.replace(/-/g, ' '));
    const lead = r.pick([
      'Work through the points below before you report.',
      'Use this when you write up the result.',
      'The team agreed on the following.',
    ]);
    const section = `## ${heading}\n\n${lead}\n\n{{prompt.${t.name}}}`;
    const proc = parts.findIndex((p) => p === '## Procedure');
    if (proc >= 0 && proc + 2 <= parts.length) parts.splice(proc + 2, 0, section);
    else parts.push(section);
  }
  if (ctx.templates.some((t) => t.kind === 'artifact') && !parts.some((p) => p.includes('{{artifact.'))) {
    parts.splice(2, 0, 'Read the plan in {{artifact.plan}} before you start.');
  }
  if (ctx.templates.some((t) => t.kind === 'lore') && !parts.some((p) => p.includes('{{lore.'))) {
    parts.splice(2, 0, 'Follow {{lore.conventions}} for naming and layout.');
  }

  if (ctx.scripts.length && !parts.some((p) => p.includes('scripts/'))) {
    const names = ctx.scripts.map((s) => `\`scripts/${s.file}\``).join(' and ');
    parts.splice(
      2,
      0,
      `The mechanical work lives in ${names}; run ${ctx.scripts.length > 1 ? 'them' : 'it'} from the repository root and read the output before editing anything.`,
    );
  }
  if (fault === 'remote-exec') {
    parts.splice(2, 0, `## Setup\n\nInstall the helper CLI first:\n\n\`\`\`sh\n${r.pick(REMOTE_EXEC_LINES)}\n\`\`\``);
  }
  if (fault === 'injection') {
    const at = Math.min(parts.length, r.int(2, Math.max(2, parts.length)));
    parts.splice(at, 0, r.pick(INJECTION_PHRASES));
  }

  let body = parts.join('\n\n') + '\n';
  if (manifested) {
    // The compiled body (templates resolved) must stay within the schema's 20,000-token ceiling:
    // drop trailing template-free parts until it does, then any heading left with nothing under it.
    while (tokensOf(resolveBody(body, prompts)) > MAX_TOKENS) {
      let i = parts.length - 1;
      while (i > 1 && parts[i].includes('{{')) i--;
      if (i <= 1) break;
      parts.splice(i, 1);
      while (parts.length > 2 && /^#+ [^\n]*$/.test(parts[parts.length - 1])) parts.pop();
      body = parts.join('\n\n') + '\n';
    }
  }

  let version = null;
  if (manifested) {
    const resolved = resolveBody(body, prompts);
    const tokens = tokensOf(resolved);
    const stubTokens = tokensOf(standingStub(resolved));
    let budget = clamp(Math.ceil(tokens * 1.3), 50, MAX_TOKENS);
    let standing =
      [60, 80, 100, 120, 150, 200, 250, 300, 400, 500].find((v) => v >= Math.ceil(stubTokens * 1.2)) ?? 500;
    if (fault === 'budget') budget = clamp(Math.floor(tokens * r.pick([0.5, 0.6, 0.75])), 50, MAX_TOKENS);
    if (fault === 'budget' && budget >= tokens) budget = 50;
    if (fault === 'standing') standing = r.pick([80, 100, 150]);
    version = `${r.int(0, 3)}.${r.int(0, 12)}.${r.int(0, 20)}`;
    const toml = [
      '[skill]',
      `name = ${tomlString(name)}`,
      `version = ${tomlString(version)}`,
      `description = ${tomlString(manifestDescription(r, ctx))}`,
      ...(r.chance(0.5) ? [`license = ${tomlString(r.pick(['MIT', 'Apache-2.0', 'BSD-3-Clause']))}`] : []),
      '',
      '[context]',
      `budget = ${budget}`,
      `standing = ${standing}`,
      `disclosure = ${tomlString(r.chance(0.85) ? 'lazy' : 'eager')}`,
    ];
    if (r.chance(0.45)) {
      toml.push('', '[triggers]', `commands = ${tomlArray([`/${name}`])}`);
      if (r.chance(0.2))
        toml.push(`events = ${tomlArray(r.sample(['pre-push', 'pre-commit', 'ci', 'pr-open'], r.int(1, 2)))}`);
    }
    if (r.chance(0.8)) {
      const tools = r.sample(['read', 'grep', 'glob', 'edit', 'bash', 'write'], r.int(1, 4));
      toml.push(
        '',
        '[permissions]',
        `tools = ${tomlArray(tools)}`,
        `network = ${r.chance(0.15)}`,
        `write = ${tools.includes('edit') || tools.includes('write')}`,
      );
    }
    const consumesPlan = ctx.templates.some((t) => t.kind === 'artifact');
    if (consumesPlan || r.chance(0.15)) {
      const produces = r.chance(0.6) ? [`${r.pick(['review', 'report', 'findings', 'summary'])}@1`] : [];
      const consumes = consumesPlan ? ['plan@1'] : [];
      toml.push('', '[artifacts]', `produces = ${tomlArray(produces)}`, `consumes = ${tomlArray(consumes)}`);
    }
    if (ctx.scripts.length || r.chance(0.1)) {
      const requires = ctx.scripts.length ? ['scripts'] : r.sample(['hooks', 'subagents'], 1);
      const gate = ctx.scripts.length > 0 && r.chance(0.25);
      toml.push('', '[targets]', `requires = ${tomlArray(requires)}`, `mode = ${tomlString(gate ? 'gate' : 'skill')}`);
    }
    const readsLore = ctx.templates.some((t) => t.kind === 'lore');
    if (readsLore || r.chance(0.1)) {
      toml.push(
        '',
        '[lore]',
        `reads = ${tomlArray(readsLore ? ['conventions'] : r.sample(['decisions', 'invariants', 'map'], 1))}`,
      );
    }
    files['skill.toml'] = toml.join('\n') + '\n';
    files['SKILL.md'] = body;
  } else {
    const desc = manifestDescription(r, ctx);
    const fmDesc = r.chance(0.3) ? `"${desc.replace(/"/g, '')}"` : desc;
    files['SKILL.md'] = `---\nname: ${name}\ndescription: ${fmDesc}\n---\n\n${body}`;
  }
  return files;
}

export function generate({ out = DEFAULT_OUT, count = 1000, seed = 20240601 } = {}) {
  const r = makeRandom(seed);
  const root = resolve(out);
  // Remove only what this generator owns, so a mistyped --out never wipes unrelated files.
  rmSync(join(root, '.kitbash'), { recursive: true, force: true });
  rmSync(join(root, 'kitbash.toml'), { force: true });
  mkdirSync(join(root, '.kitbash', 'skills'), { recursive: true });
  writeFileSync(
    join(root, 'kitbash.toml'),
    '# Benchmark project generated by bench/generate.mjs. Do not edit by hand.\n[project]\ntargets = ["claude-code", "agentsmd"]\n',
  );

  const specs = makeNames(r, count).map((s) => ({ ...s, manifested: r.chance(0.6) }));
  // ≈2.5% deliberately flagged: ≈2% fail (budget overrun and over-long stub on manifested
  // skills, a download-and-execute line on any) and ≈0.5% carry an injection-style phrase.
  const faults = new Map();
  const share = (p) => Math.max(1, Math.round(count * p));
  const manifestedIdx = r.shuffle(specs.map((s, i) => (s.manifested ? i : -1)).filter((i) => i >= 0));
  const assign = (pool, kind, n) => {
    for (const i of pool.filter((j) => !faults.has(j)).slice(0, n)) faults.set(i, kind);
  };
  assign(manifestedIdx, 'budget', share(0.007));
  assign(manifestedIdx, 'standing', share(0.006));
  const all = r.shuffle(specs.map((_, i) => i));
  assign(all, 'remote-exec', share(0.007));
  assign(all, 'injection', share(0.005));

  let bytes = 0;
  let manifested = 0;
  let withScripts = 0;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    const files = generateSkill(r, spec, faults.get(i));
    const dir = join(root, '.kitbash', 'skills', spec.name);
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text, rel.startsWith('scripts/') ? { mode: 0o755 } : undefined);
      bytes += Buffer.byteLength(text);
    }
    if (spec.manifested) manifested++;
    if (Object.keys(files).some((f) => f.startsWith('scripts/'))) withScripts++;
  }
  const faultCounts = {};
  for (const f of faults.values()) faultCounts[f] = (faultCounts[f] ?? 0) + 1;
  return {
    root,
    skills: specs.length,
    bytes,
    manifested,
    bare: specs.length - manifested,
    withScripts,
    faults: faultCounts,
  };
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--out') opts.out = value();
    else if (a === '--count') opts.count = Number.parseInt(value(), 10);
    else if (a === '--seed') opts.seed = Number.parseInt(value(), 10);
    else if (a === '--help' || a === '-h') {
      process.stdout.write('usage: node bench/generate.mjs [--out DIR] [--count N] [--seed S]\n');
      process.exit(0);
    } else throw new Error(`unknown argument: ${a}`);
  }
  if (opts.count !== undefined && !(opts.count > 0)) throw new Error('--count must be a positive integer');
  if (opts.seed !== undefined && !Number.isFinite(opts.seed)) throw new Error('--seed must be an integer');
  return opts;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const s = generate(parseArgs(process.argv.slice(2)));
    const rel = relative(process.cwd(), s.root) || '.';
    const faults = Object.entries(s.faults)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    process.stdout.write(
      `generated ${s.skills} skills in ${rel}: ${(s.bytes / 1e6).toFixed(2)} MB (${s.bytes} bytes), ` +
        `${s.manifested} manifested / ${s.bare} bare, ${s.withScripts} with scripts/; flagged: ${faults}\n`,
    );
    if (!existsSync(join(s.root, 'kitbash.toml'))) process.exit(1);
  } catch (err) {
    process.stderr.write(`generate: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
}
