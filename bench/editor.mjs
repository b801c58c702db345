#!/usr/bin/env node
// Benchmark: keystroke-to-markers latency of the skill editor, for SKILL.md bodies of
// 1,000, 5,000 and 20,000 tokens.
//
//   node bench/editor.mjs [--keys N] [--browser-keys N] [--no-browser] [--no-write]
//
// 1. engine: the diagnostics the editor runs per keystroke (renderer/src/views/editor/
//    analyze.ts: shared/ksf loadSkill + shared/lint lintSkill + the marker mapping), in
//    Node, on the skill's buffers with one more character each time.
// 2. screen: in Chromium over `skillsmith serve`, on #/editor/<skill>: one real key press
//    in Monaco, timed from the keydown event to the animation frame after the markers of
//    the analysis that includes it are on the model (debounce + Web Worker round trip +
//    marker update). Keys are spaced so each is answered on its own.
// Writes its section of bench/RESULTS.md between markers; the rest is left alone.

import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEngine, failer, machine } from './lib/env.mjs';
import { keystrokeOptions, latencyRow, onScreen, screenUnavailable, tableRow } from './lib/keystrokes.mjs';
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
const browserNote = opts.browser ? screenUnavailable() : '';
const screenRows =
  opts.browser && !browserNote
    ? await onScreen({
        name: 'editor',
        work: WORK,
        sizes: SIZES,
        prepare: (dir, tokens) => {
          rmSync(dir, { recursive: true, force: true });
          cpSync(join(ROOT, 'examples', 'workspace'), dir, { recursive: true });
          const sk = join(dir, '.kitbash', 'skills', 'bench-editor');
          mkdirSync(sk, { recursive: true });
          writeFileSync(join(sk, 'skill.toml'), TOML(20000));
          writeFileSync(join(sk, 'SKILL.md'), bodyOf(Math.min(tokens, 19_800)));
        },
        measure: async (page, url, tokens) => {
          const errors = [];
          page.on('pageerror', (e) => errors.push(e.message));
          await page.goto(`${url}#/editor/bench-editor`);
          await page
            .locator('.editor-host .monaco-editor')
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
            await page.waitForFunction((k) => window.__skillsmithEditor.stats.latencies.length >= k, n, {
              timeout: 10_000,
            });
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
          return latencyRow('screen', tokens, times, { workerMs });
        },
      })
    : [];

// --- results ---------------------------------------------------------------------------------
const load = os.loadavg()[0].toFixed(1);
const lines = [
  BEGIN,
  '## Editor: keystroke to markers',
  '',
  `\`node bench/editor.mjs\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Node ${process.version}, 1-min load ${load} at the end (the machine is shared). One manifested lazy skill whose SKILL.md body has the given size; each key appends one character.`,
  '',
  '**engine** — what the diagnostics worker runs per keystroke, in Node: shared/ksf `loadSkill` + shared/lint `lintSkill` (every check the CLI runs, safety scans included) + mapping to marker ranges. Checked: the bench skill lints clean, and a zero-width character in the same body is found as blocking.',
  '',
  '| body | measured body | keys | median | p95 |',
  '|---:|---:|---:|---:|---:|',
  ...engineRows.map(tableRow),
  '',
];
if (screenRows.length) {
  const met = screenRows.every((r) => r.tokens !== 20000 || r.median < TARGET_MS);
  lines.push(
    `**screen** — in Chromium over \`skillsmith serve\`, \`#/editor/bench-editor\`: from the keydown of one real key press in Monaco to the animation frame after the markers of the analysis that includes it are set (5 ms debounce, buffers posted to the Web Worker, analysis, markers). Checked: a zero-width character typed afterwards is marked.`,
    '',
    '| body | keys | median | p95 |',
    '|---:|---:|---:|---:|',
    ...screenRows.map(tableRow),
    '',
    `Target: markers within ${TARGET_MS} ms of a keystroke for a 20,000-token body (median) — **${met ? 'met' : 'not met'}**. p95 carries the shared machine's noise.`,
    '',
  );
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
