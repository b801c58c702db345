#!/usr/bin/env node
// Benchmark: keystroke-to-markers latency of the skill editor, for SKILL.md bodies of
// 1,000, 5,000 and 20,000 tokens.
//
//   node bench/editor.mjs [--keys N] [--browser-keys N] [--no-browser] [--no-write]
//                         [--reference RENDERER_DIR [--reference-label TEXT]] [--rounds N]
//
// 1. engine: the diagnostics the editor runs per keystroke (renderer/src/views/editor/
//    analyze.ts: shared/ksf loadSkill + shared/lint lintSkill + the marker mapping), in
//    Node, on the skill's buffers with one more character each time.
// 2. screen: in Chromium over `skillsmith serve`, on #/editor/<skill>: one real key press
//    in Monaco, timed from the keydown event to the animation frame after the markers of
//    the analysis that includes it are on the model (Web Worker round trip + marker
//    update). Keys are spaced so each is answered on its own. Served: out/renderer-test
//    (the test hook the timing reads). With --reference, another renderer build (one with
//    the same hook) is measured at 20,000 tokens in rounds alternating with this one.
// Writes its section of bench/RESULTS.md between markers; the rest is left alone.

import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEngine, failer, machine } from './lib/env.mjs';
import { percentile, fmtLatency } from './lib/stats.mjs';
import {
  keystrokeOptions,
  latencyRow,
  onScreen,
  screenUnavailable,
  tableRow,
  TEST_RENDERER,
} from './lib/keystrokes.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const WORK = join(HERE, 'work', 'editor');
const BEGIN = '<!-- bench:editor:begin -->';
const END = '<!-- bench:editor:end -->';
const SIZES = [1000, 5000, 20000];
const TARGET_MS = 100;
/** Keys typed before the timed ones, per body. */
const WARM = 10;

const fail = failer('editor');
const opts = keystrokeOptions(fail);

// The editor's own analysis module, bundled for Node (it is pure: shared/ + yaml).
const engine = await bundleEngine(
  WORK,
  { 'renderer/src/views/editor/analyze.ts': ['analyze'], 'shared/ksf/tokens.ts': ['estimateTokens'] },
  { out: 'analyze.mjs' },
);

// A body of the given size made of varied numbered steps with code spans, links and
// template-free prose, so every scanner (secrets, injection, invisible text) has work.
const STEPS = [
  'Read the diff with `git diff --stat` first and list every file the change touches, grouped by package.',
  'For each handler, compare the route with the naming rules: plural nouns, no verbs, kebab-case segments.',
  'Check that every error path returns a status that names what happened, and that the body says why.',
  'Open the tests next to the change; a new branch in the code needs a test that fails without it.',
  'Write the findings as a list: file, line, severity (block or note) and one sentence each.',
];
function bodyOf(tokens) {
  let s =
    '# Bench skill\n\nReviews an API change against the team rules and reports what to fix, step by step.\n\n## Steps\n\n';
  let n = 1;
  while (engine.estimateTokens(s) < tokens - 30)
    s += `${n}. ${STEPS[n++ % STEPS.length]} See [the guide](https://example.com/guide/${n}).\n\n`;
  return s;
}
const TOML = (budget) =>
  `[skill]\nname = "bench-editor"\nversion = "1.0.0"\ndescription = "Review API changes against the team rules, step by step"\n\n[context]\nbudget = ${budget}\nstanding = 200\ndisclosure = "lazy"\n\n[permissions]\ntools = ["read", "grep"]\nnetwork = false\nwrite = false\n`;

// --- 1. engine, in Node -------------------------------------------------------------------
const engineRows = [];
for (const tokens of SIZES) {
  // KSF caps a budget at 20,000: the largest body stays just under it as keys are typed.
  const md = bodyOf(Math.min(tokens, 19_800));
  const toml = TOML(20000);
  let text = md;
  const times = [];
  for (let i = 0; i < opts.keys + 10; i++) {
    text += i % 6 === 5 ? ' ' : 'k';
    const t0 = performance.now();
    const a = engine.analyze({ dir: 'bench-editor', texts: { 'skill.toml': toml, 'SKILL.md': text } }, () =>
      performance.now(),
    );
    const t = performance.now() - t0;
    if (a.summary.errors || !a.meter)
      fail(`${tokens}: the bench skill does not lint clean: ${JSON.stringify(a.diagnostics[0])}`);
    if (i >= 10) times.push(t);
  }
  // The engine finds what it should on this body: a zero-width character at its column.
  const probe = engine.analyze({ dir: 'bench-editor', texts: { 'skill.toml': toml, 'SKILL.md': `${md}x\u200By\n` } });
  if (!probe.diagnostics.some((d) => d.code === 'visible-text' && d.blocking))
    fail(`${tokens}: the zero-width probe was not found`);
  engineRows.push(latencyRow('engine', tokens, times, { bodyTokens: engine.estimateTokens(md) }));
}

// --- 2. screen, in Chromium over serve -------------------------------------------------------
const prepare = (dir, tokens) => {
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, 'examples', 'workspace'), dir, { recursive: true });
  const sk = join(dir, '.kitbash', 'skills', 'bench-editor');
  mkdirSync(sk, { recursive: true });
  writeFileSync(join(sk, 'skill.toml'), TOML(20000));
  writeFileSync(join(sk, 'SKILL.md'), bodyOf(Math.min(tokens, 19_800)));
};

/** Keystroke → markers on one page, `opts.browserKeys` timed keys after WARM untimed ones. */
async function keystrokes(page, url) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}#/editor/bench-editor`);
  await page
    .locator('.ed-host .monaco-editor')
    .waitFor({ timeout: 60_000 })
    .catch(async (e) => {
      await page.screenshot({ path: join(os.tmpdir(), 'bench-editor-failed.png') });
      throw new Error(
        `${e.message}\npage errors: ${errors.join('; ')}\nhash: ${await page.evaluate(() => location.hash)}`,
      );
    });
  await page.waitForFunction(() => window.__skillsmithEditor?.analysis() != null, null, { timeout: 60_000 });
  const lines = await page.evaluate(() => window.__skillsmithEditor.value('SKILL.md').split('\n').length);
  await page.evaluate((l) => window.__skillsmithEditor.goto(l, 1), lines);
  // Let the first analysis, the previews and the YAML worker settle before timing keys.
  await page.waitForTimeout(1500);
  const before = await page.evaluate(() => window.__skillsmithEditor.stats.latencies.length);
  for (let i = 0; i < opts.browserKeys + WARM; i++) {
    const n = before + i + 1;
    await page.keyboard.press(i % 6 === 5 ? 'Space' : 'KeyK');
    await page.waitForFunction((k) => window.__skillsmithEditor.stats.latencies.length >= k, n, { timeout: 10_000 });
    await page.waitForTimeout(30);
  }
  const all = await page.evaluate(() => window.__skillsmithEditor.stats.latencies.slice());
  const times = all.slice(before + WARM);
  // The markers follow the text: a zero-width character typed now is marked.
  await page.keyboard.insertText('\u200B');
  await page.waitForFunction(
    () => window.__skillsmithEditor.markers('SKILL.md').some((m) => /visible-text/.test(m.message)),
    null,
    { timeout: 10_000 },
  );
  const workerMs = await page.evaluate(() => window.__skillsmithEditor.stats.lastMs);
  return { times, workerMs };
}

const browserNote = opts.browser ? screenUnavailable(TEST_RENDERER) : '';
const loadBefore = os.loadavg();
const screenRows =
  opts.browser && !browserNote
    ? await onScreen({
        name: 'editor',
        work: WORK,
        sizes: SIZES,
        renderer: TEST_RENDERER,
        prepare,
        measure: async (page, url, tokens) => {
          const { times, workerMs } = await keystrokes(page, url);
          return latencyRow('screen', tokens, times, { workerMs });
        },
      })
    : [];

// The same 20,000-token body against another build (--reference), rounds alternating.
const ab = { reference: [], current: [], loads: [] };
if (opts.browser && !browserNote && opts.reference) {
  const largest = SIZES[SIZES.length - 1];
  for (let r = 0; r < opts.rounds; r++) {
    for (const [key, renderer] of [
      ['reference', opts.reference],
      ['current', TEST_RENDERER],
    ]) {
      const [row] = await onScreen({
        name: `editor-${key}`,
        work: WORK,
        sizes: [largest],
        renderer,
        prepare,
        measure: async (page, url) => (await keystrokes(page, url)).times,
      });
      ab[key].push(...row);
      ab.loads.push(os.loadavg()[0]);
    }
  }
  latencyRow('reference', largest, ab.reference);
  latencyRow('current', largest, ab.current);
}

// --- results ---------------------------------------------------------------------------------
const loadAfter = os.loadavg();
const fmtLoad = (l) => l.map((x) => x.toFixed(1)).join(' / ');
const lines = [
  BEGIN,
  '## Editor: keystroke to markers',
  '',
  `\`node bench/editor.mjs\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Node ${process.version}; load average (1 / 5 / 15 min) ${fmtLoad(loadBefore)} before the screen runs, ${fmtLoad(loadAfter)} at the end (the machine is shared). One manifested lazy skill whose SKILL.md body has the given size; each key appends one character.`,
  '',
  '**engine** — what the diagnostics worker runs per keystroke, in Node: shared/ksf `loadSkill` + shared/lint `lintSkill` (every check the CLI runs, safety scans included) + mapping to marker ranges. Checked: the bench skill lints clean, and a zero-width character in the same body is found as blocking.',
  '',
  '| body | measured body | keys | median | p95 |',
  '|---:|---:|---:|---:|---:|',
  ...engineRows.map(tableRow),
  '',
];
if (screenRows.length) {
  const big = screenRows.find((r) => r.tokens === 20000);
  const met = big && big.p95 < TARGET_MS;
  lines.push(
    `**screen** — in Chromium over \`skillsmith serve\` (the renderer's test build, out/renderer-test), \`#/editor/bench-editor\`: from the keydown of one real key press in Monaco to the animation frame after the markers of the analysis that includes it are set (the edits of one task folded into one request, buffers posted to the diagnostics Web Worker, analysis, markers). Keys are spaced so each is answered on its own. Checked: a zero-width character typed afterwards is marked.`,
    '',
    '| body | keys | p50 | p95 | max |',
    '|---:|---:|---:|---:|---:|',
    ...screenRows.map(
      (r) =>
        `| ${r.tokens.toLocaleString('en-US')} tok | ${r.n} | ${fmtLatency(r.median)} ms | ${fmtLatency(r.p95)} ms | ${fmtLatency(r.max)} ms |`,
    ),
    '',
    `Target: markers within ${TARGET_MS} ms of a keystroke for a 20,000-token body, p95 — **${met ? 'met' : 'not met'}** on this run.`,
    '',
  );
  if (ab.current.length) {
    const q = (xs, p) => fmtLatency(percentile(xs, p));
    lines.push(
      `**side by side** — the same 20,000-token body, ${opts.rounds} rounds of ${opts.browserKeys} keys alternating the reference renderer (${opts.label ?? `\`${opts.reference}\``}) and this one; 1-min load ${Math.min(...ab.loads).toFixed(1)}–${Math.max(...ab.loads).toFixed(1)} over the rounds.`,
      '',
      '| build | keys | p50 | p95 |',
      '|---|---:|---:|---:|',
      `| reference | ${ab.reference.length} | ${q(ab.reference, 50)} ms | ${q(ab.reference, 95)} ms |`,
      `| this build | ${ab.current.length} | ${q(ab.current, 50)} ms | ${q(ab.current, 95)} ms |`,
      '',
    );
  }
} else if (browserNote || !opts.browser) {
  lines.push(browserNote || 'Screen latency not measured (--no-browser).', '');
}
lines.push(END);
const section = lines.join('\n');
process.stdout.write(`${section}\n`);
if (opts.write) {
  writeResultsSection(BEGIN, END, section);
}
rmSync(WORK, { recursive: true, force: true });
