#!/usr/bin/env node
// Benchmark: keystroke-to-preview latency of the compiled previews, for SKILL.md bodies of
// 1,000, 5,000 and 20,000 tokens, in the example workspace (5 skills, 3 active targets)
// plus the benchmarked skill.
//
//   node bench/previews.mjs [--keys N] [--no-browser] [--no-write]
//
// Two measurements per body size:
//  1. plan: main's work for one preview request, in Node — the edited skill loaded
//     from its buffers, the whole project re-planned by shared/compile, every active
//     target's preview (emit, matrix cell, cost) built. This is what the UI waits for.
//  2. screen: in Chromium over `skillsmith serve`, on the Previews screen, from the input
//     event of one typed character in the draft to the next frame after the selected
//     target's preview text holds it; the selected target cycles through the three.
// Writes its section of bench/RESULTS.md between markers; the rest is left alone.

import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEngine, failer, machine } from './lib/env.mjs';
import { keystrokeOptions, latencyRow, onScreen, screenUnavailable, tableRow } from './lib/keystrokes.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const WORK = join(HERE, 'work', 'previews');
const BEGIN = '<!-- bench:previews:begin -->';
const END = '<!-- bench:previews:end -->';
const SIZES = [1000, 5000, 20000];

const fail = failer('previews');
const opts = keystrokeOptions(fail);

// --- bundle main's preview planning (the same module the app runs) ------------------
const engine = await bundleEngine(WORK, {
  'main/services/previews/index.ts': ['livePreview', 'editOf'],
  'main/services/dashboard/report.ts': ['loadProject'],
  'shared/ksf/tokens.ts': ['estimateTokens'],
});

// --- the project: the example workspace plus one skill with a body of N tokens ------
const PARA =
  'When a change touches the public API, read the route table first, then compare each new handler with the naming rules below. ' +
  'Flag a plural resource served under a singular path, a verb in a path segment, and a status code that does not say what happened. ';
function body(tokens) {
  let s = '# Bench body\n\nFollow these steps in order.\n\n';
  let n = 1;
  while (engine.estimateTokens(s) < tokens - 40) s += `${n++}. ${PARA}\n\n`;
  return s;
}
function project(dir, tokens) {
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, 'examples', 'workspace'), dir, { recursive: true });
  const sk = join(dir, '.kitbash', 'skills', 'bench-body');
  mkdirSync(sk, { recursive: true });
  const toml = `[skill]\nname = "bench-body"\nversion = "1.0.0"\ndescription = "Review public API changes against the naming rules, step by step"\n\n[context]\nbudget = ${Math.min(20000, tokens * 2)}\nstanding = 200\ndisclosure = "lazy"\n\n[permissions]\ntools = ["read", "grep"]\nnetwork = false\nwrite = false\n`;
  // KSF caps a budget at 20,000 tokens: the largest body stays just under it while keys are typed.
  const md = body(Math.min(tokens, 19_800));
  writeFileSync(join(sk, 'skill.toml'), toml);
  writeFileSync(join(sk, 'SKILL.md'), md);
  return { toml, md };
}

// --- 1. plan, in process ------------------------------------------------------------
const planRows = [];
for (const tokens of SIZES) {
  const dir = join(WORK, `plan-${tokens}`);
  const { toml, md } = project(dir, tokens);
  const loaded = engine.loadProject(dir);
  let text = md;
  const times = [];
  // Correctness first: the typed character is in every target's output.
  for (let i = 0; i < opts.keys + 10; i++) {
    text += i % 7 === 6 ? ' ' : 'k';
    const files = new Map([
      ['skill.toml', toml],
      ['SKILL.md', text],
    ]);
    const t0 = performance.now();
    const live = engine.livePreview(loaded, engine.editOf(dir, loaded, 'bench-body', files));
    const t = performance.now() - t0;
    if (live.loadError || live.prepareError || live.plan.errors.length)
      fail(`plan failed: ${live.loadError ?? live.prepareError ?? live.plan.errors[0]}`);
    const tail = text.slice(-12).trimEnd();
    for (const tp of live.targets) {
      const f = tp.files.find((x) => typeof x.content === 'string' && x.content.includes('bench-body'));
      if (!f || !f.content.includes(tail)) fail(`${tp.target}: the preview does not hold the typed text`);
    }
    if (i >= 10) times.push(t);
  }
  planRows.push(latencyRow('plan', tokens, times, { bodyTokens: engine.estimateTokens(md) }));
  rmSync(dir, { recursive: true, force: true });
}

// --- 2. screen, in Chromium over serve ---------------------------------------------------
const browserNote = opts.browser ? screenUnavailable() : '';
const screenRows =
  opts.browser && !browserNote
    ? await onScreen({
        name: 'previews',
        work: WORK,
        sizes: SIZES,
        prepare: project,
        measure: async (page, url, tokens) => {
          await page.goto(`${url}#/previews/bench-body`);
          await page.locator('.pv-tab').nth(2).waitFor({ timeout: 60_000 });
          const ids = await page.locator('.pv-tab').evaluateAll((els) => els.map((e) => e.dataset.target));
          const times = [];
          for (let i = 0; i < opts.browserKeys + 5; i++) {
            const id = ids[i % ids.length];
            await page.locator(`.pv-tab[data-target="${id}"]`).click();
            await page.locator(`.pv-detail[data-target="${id}"]`).waitFor();
            const ms = await page.evaluate(async (marker) => {
              const ta = document.querySelector('textarea.pv-draft-text');
              const set = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
              const holds = () =>
                [...document.querySelectorAll('.pv-detail [data-testid="preview-output"]')].some((p) =>
                  p.textContent.includes(marker),
                );
              // Let the tab switch lay out and paint first: only the keystroke is timed.
              await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
              return await new Promise((done) => {
                const t0 = performance.now();
                const check = () => {
                  if (holds()) requestAnimationFrame(() => done(performance.now() - t0));
                  else setTimeout(check, 0);
                };
                set.call(ta, `${ta.value}${marker}`);
                ta.dispatchEvent(new Event('input', { bubbles: true }));
                check();
              });
            }, ` q${i}z`);
            if (i >= 5) times.push(ms);
          }
          return latencyRow('screen', tokens, times);
        },
      })
    : [];

// --- results --------------------------------------------------------------------------
const lines = [
  BEGIN,
  '## Compiled previews: keystroke to preview',
  '',
  `\`node bench/previews.mjs\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, Node ${process.version}. The example workspace (5 skills; targets claude-code, cursor, agentsmd) plus one lazy skill whose SKILL.md body has the given size; each keystroke appends one character to the body.`,
  '',
  "**plan** — main's work per preview request (on its preview thread in the app), in Node: load the edited skill from its buffers, re-plan the whole project with shared/compile (unchanged skills stay memoised), build each active target's preview (files, matrix cell, standing cost). Checked: every target's output holds the typed text.",
  '',
  '| body | measured body | keys | median | p95 |',
  '|---:|---:|---:|---:|---:|',
  ...planRows.map(tableRow),
  '',
];
if (screenRows.length) {
  lines.push(
    "**screen** — in Chromium over `skillsmith serve`, Previews screen: from the input event of one typed character in the draft to the next animation frame after the selected target's preview text holds it (the selected target cycles through the three). Includes React's render of the draft, the request to main and its re-plan, and the preview's DOM update.",
    '',
    '| body | keys | median | p95 |',
    '|---:|---:|---:|---:|',
    ...screenRows.map(tableRow),
    '',
  );
} else if (browserNote) lines.push(browserNote, '');
lines.push('The machine is shared with other jobs, so p95 carries their noise.', END);
if (opts.write) {
  writeResultsSection(BEGIN, END, lines.join('\n'));
  process.stdout.write('bench/RESULTS.md: previews section written\n');
} else process.stdout.write(`${lines.join('\n')}\n`);
