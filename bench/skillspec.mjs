#!/usr/bin/env node
// Benchmark: the SkillSpec engine on the reference corpus (../shared/corpus/skillspec).
//
//   node bench/skillspec.mjs [--seconds N] [--rounds N] [--no-write]
//
// 1. decide: every scenario-test input of every valid corpus spec, decided in a loop
//    (specs already loaded), each decision timed on its own → decisions/s, median, p99.
// 2. validate + test: the whole corpus from disk (read, parse, validate, import files,
//    sidecars, all scenario tests) per round → median / min / max.
// The engine is bundled from the TypeScript sources with rolldown (bench/work/), so the
// numbers are for the same code the CLI runs. Writes the "SkillSpec engine" section of
// bench/RESULTS.md between its markers (the rest of the file is left as it is).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEngine, failer, gitCommit, machine } from './lib/env.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const CORPUS = join(ROOT, '..', 'shared', 'corpus', 'skillspec');
const TARGET_MEDIAN_MS = 0.2;
const BEGIN = '<!-- skillspec-bench:begin -->';
const END = '<!-- skillspec-bench:end -->';

const fail = failer('skillspec');

const opts = { seconds: 3, rounds: 15, write: true };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--seconds') opts.seconds = Number(argv[++i]);
  else if (a === '--rounds') opts.rounds = Number(argv[++i]);
  else if (a === '--no-write') opts.write = false;
  else if (a === '--help' || a === '-h') {
    process.stdout.write('usage: node bench/skillspec.mjs [--seconds N] [--rounds N] [--no-write]\n');
    process.exit(0);
  } else fail(`unknown argument: ${a}`);
}
if (!(opts.seconds > 0) || !Number.isInteger(opts.rounds) || opts.rounds < 1)
  fail('--seconds must be > 0 and --rounds an integer >= 1');
if (!existsSync(join(CORPUS, 'MANIFEST.json')))
  fail(`the SkillSpec corpus is not at ${CORPUS}; nothing to measure, no numbers recorded.`);

// --- bundle the engine --------------------------------------------------------
const engine = await bundleEngine(
  join(HERE, 'work'),
  {
    'main/services/skillspec/load.ts': ['loadSpec'],
    'shared/skillspec/decide.ts': ['decide'],
    'shared/skillspec/scenario.ts': ['runScenarioTests'],
  },
  { entry: 'skillspec-entry.mjs', out: 'skillspec-engine.mjs' },
);

const manifest = JSON.parse(readFileSync(join(CORPUS, 'MANIFEST.json'), 'utf8'));
const valid = manifest.filter((e) => e.kind === 'valid');

// --- correctness first: a benchmark of a broken engine means nothing ------------
const loaded = [];
let tests = 0;
for (const e of valid) {
  let spec;
  try {
    spec = engine.loadSpec(e.path, { cwd: CORPUS }).spec;
  } catch (err) {
    fail(`${e.path} does not load (${err.message}); no numbers recorded.`);
  }
  const run = engine.runScenarioTests(spec);
  if (run.failed.length) fail(`${e.path}: ${run.failed.length} scenario test(s) fail; no numbers recorded.`);
  tests += run.total;
  loaded.push({ path: e.path, spec, inputs: spec.tests.map((t) => t.input) });
}
const pairs = loaded.flatMap((l) => l.inputs.map((input) => ({ spec: l.spec, input })));

// --- 1. decide ----------------------------------------------------------------------
function stats(samples) {
  const s = Float64Array.from(samples).sort();
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: at(0.5), p99: at(0.99), min: s[0], max: s[s.length - 1] };
}

for (let i = 0; i < 3; i++) for (const p of pairs) engine.decide(p.spec, p.input); // warm-up
const perDecision = [];
let decisions = 0;
const budget = BigInt(Math.round(opts.seconds * 1e9));
const start = process.hrtime.bigint();
let elapsed = 0n;
while (elapsed < budget) {
  for (const p of pairs) {
    const t0 = process.hrtime.bigint();
    engine.decide(p.spec, p.input);
    perDecision.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  decisions += pairs.length;
  elapsed = process.hrtime.bigint() - start;
}
const loopMs = Number(elapsed) / 1e6;
const d = stats(perDecision);
const perSecond = decisions / (loopMs / 1000);

// --- 2. validate + test the corpus ----------------------------------------------------
const roundMs = [];
for (let r = 0; r < opts.rounds + 1; r++) {
  const t0 = process.hrtime.bigint();
  for (const e of valid) engine.runScenarioTests(engine.loadSpec(e.path, { cwd: CORPUS }).spec);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r > 0) roundMs.push(ms); // round 0 warms up
}
const v = stats(roundMs);

// --- report ---------------------------------------------------------------------------
const f3 = (x) => x.toFixed(3);
const f1 = (x) => x.toFixed(1);
const commit = gitCommit();
const met = d.median < TARGET_MEDIAN_MS;
const section = `${BEGIN}
## SkillSpec engine

Written by \`node bench/skillspec.mjs\` (corpus \`../shared/corpus/skillspec\`, ${valid.length} valid specs, ${tests} scenario tests, ${pairs.length} distinct decisions).

- Date: ${new Date().toISOString()}; commit ${commit}; ${machine('unknown')}; Node ${process.version}

**decide** (specs loaded once; every scenario input in turn for ${opts.seconds} s, each call timed alone):

| decisions | decisions/s | median | p99 | max |
|---:|---:|---:|---:|---:|
| ${decisions} | ${Math.round(perSecond).toLocaleString('en-US')} | ${f3(d.median)} ms | ${f3(d.p99)} ms | ${f3(d.max)} ms |

Target: median under ${TARGET_MEDIAN_MS} ms per decision — **${met ? 'met' : 'not met'}**.

**validate + test the whole corpus** from disk (read, YAML, validation, import files and sections, sidecars, all ${tests} scenario tests), ${opts.rounds} rounds after one warm-up:

| median | min | max |
|---:|---:|---:|
| ${f1(v.median)} ms | ${f1(v.min)} ms | ${f1(v.max)} ms |
${END}
`;

process.stdout.write(
  `decide: ${decisions} decisions in ${f1(loopMs)} ms → ${Math.round(perSecond)}/s; median ${f3(d.median)} ms, p99 ${f3(d.p99)} ms (target < ${TARGET_MEDIAN_MS} ms: ${met ? 'MET' : 'NOT MET'})\n` +
    `validate+test corpus: median ${f1(v.median)} ms (min ${f1(v.min)}, max ${f1(v.max)}) over ${opts.rounds} rounds\n`,
);
if (opts.write) {
  writeResultsSection(BEGIN, END, section);
  process.stdout.write('wrote the SkillSpec section of bench/RESULTS.md\n');
}
