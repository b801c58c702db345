#!/usr/bin/env node
// Desktop benchmark: (1) time from starting `skillsmith serve` on a generated 200-skill
// project to the dashboard being interactive in Chromium; (2) the renderer's memory with
// 1,000 skills. Writes its own section of bench/RESULTS.md (between desktop-bench markers).
//
//   node bench/desktop.mjs [--runs N] [--no-write]
//
// "Interactive" = every visible row of the skills table is rendered and the filter box
// answers: a typed filter narrows the table (checked inside the page, then cleared).
// Chromium is started once, before timing; each run spawns a fresh `serve` (the built
// CLI) and opens a fresh browser context. Memory is the page's JS heap after a forced GC
// (CDP Performance.getMetrics), plus DOM nodes and the rows the virtualised table keeps.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';
import { CHROMIUM, failer, gitCommit, launchChromium, machine, startServe } from './lib/env.mjs';
import { median } from './lib/stats.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const TARGET_MS = 1500;
const BEGIN = '<!-- desktop-bench:begin -->';
const END = '<!-- desktop-bench:end -->';

const fail = failer('desktop');

const argv = process.argv.slice(2);
let runs = 9;
let write = true;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs') runs = Number(argv[++i]);
  else if (argv[i] === '--no-write') write = false;
  else fail(`unknown argument ${argv[i]}`);
}
if (!Number.isInteger(runs) || runs < 1) fail('--runs must be a positive integer');
if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing — no numbers recorded`);
if (!existsSync(join(ROOT, 'out', 'main', 'cli.js')) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
  fail('the app is not built — run "npm run build" first');

function project(count) {
  const out = join(HERE, 'work', `desktop-${count}`);
  if (!existsSync(join(out, '.kitbash', 'skills'))) generate({ out, count });
  return out;
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/** Resolves when the table shows rows and a typed filter narrows it. */
async function waitInteractive(page, expectRows) {
  await page.waitForFunction((n) => document.querySelectorAll('.tbody [role="row"]').length >= n, expectRows, {
    timeout: 60_000,
    polling: 'raf',
  });
  await page.fill('input[aria-label="Filter skills"]', 'zzzz-no-such-skill');
  await page.waitForSelector('.table-empty', { timeout: 10_000 });
  await page.fill('input[aria-label="Filter skills"]', '');
}

const loadBefore = os.loadavg()[0];
const browser = await launchChromium(['--disable-component-update', '--disable-sync']);
const data = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-desktop-'));
const results = { interactive: [], memory: null };
try {
  // (1) serve → interactive, 200 skills. One untimed warm-up run (disk cache, JIT of the CLI).
  const p200 = project(200);
  for (let i = 0; i <= runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const t0 = performance.now();
    const { child, url } = await startServe(p200, join(data, `d${i}`));
    try {
      await page.goto(url);
      await waitInteractive(page, 10);
      const ms = performance.now() - t0;
      if (i > 0) results.interactive.push(ms);
      process.stdout.write(`  ${i === 0 ? 'warm-up' : `run ${i}`}: ${ms.toFixed(0)} ms\n`);
    } finally {
      await context.close();
      await stop(child);
    }
  }

  // (2) memory with 1,000 skills.
  const p1000 = project(1000);
  const { child, url } = await startServe(p1000, join(data, 'mem'));
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(url);
    await waitInteractive(page, 10);
    const loadMs = performance.now() - t0;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (n) => metrics.find((m) => m.name === n)?.value ?? NaN;
    const rows = await page.evaluate(() => document.querySelectorAll('.tbody [role="row"]').length);
    const skills = await page.evaluate(() =>
      Number(document.querySelector('[data-tile="skills"] .tile-v')?.textContent ?? 'NaN'),
    );
    // Scroll the whole table once, then measure again: virtualisation keeps the row count flat.
    await page.evaluate(async () => {
      const body = document.querySelector('.tbody');
      for (let y = 0; y <= body.scrollHeight; y += 2000) {
        body.scrollTop = y;
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    await cdp.send('HeapProfiler.collectGarbage');
    const after = (await cdp.send('Performance.getMetrics')).metrics;
    const rowsAfter = await page.evaluate(() => document.querySelectorAll('.tbody [role="row"]').length);
    const lastVisible = await page.evaluate(() =>
      [...document.querySelectorAll('.tbody [role="row"]')].at(-1)?.getAttribute('data-skill'),
    );
    results.memory = {
      skills,
      loadMs,
      heapMB: metric('JSHeapUsedSize') / 2 ** 20,
      heapAfterScrollMB: (after.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / 2 ** 20,
      domNodes: metric('Nodes'),
      rows,
      rowsAfter,
      lastVisible,
    };
    await context.close();
  } finally {
    await stop(child);
  }
} finally {
  await browser.close();
  rmSync(data, { recursive: true, force: true });
}

const med = median(results.interactive);
const m = results.memory;
const commit = gitCommit();
const section = [
  BEGIN,
  '## Desktop app (loopback host + renderer in Chromium)',
  '',
  'Written by `node bench/desktop.mjs` (projects from `bench/generate.mjs`: 200 and 1,000 skills; Debian Chromium, headless).',
  '',
  `- Date: ${new Date().toISOString()}; commit ${commit}; ${machine()}; Node ${process.version}`,
  `- Machine load (1-min load average) at start / end: ${loadBefore.toFixed(1)} / ${os.loadavg()[0].toFixed(1)} — the machine is shared, so read the numbers against it.`,
  '',
  `**serve → interactive dashboard, 200 skills** (spawn \`skillsmith serve --project\`, read its URL, load the page, table rendered and the filter answering; ${runs} runs after one warm-up):`,
  '',
  '| runs | median | min | max |',
  '|---:|---:|---:|---:|',
  `| ${results.interactive.length} | ${med.toFixed(0)} ms | ${Math.min(...results.interactive).toFixed(0)} ms | ${Math.max(...results.interactive).toFixed(0)} ms |`,
  '',
  `Target: median under ${TARGET_MS} ms — **${med < TARGET_MS ? 'met' : 'not met'}**.`,
  '',
  `**Renderer with 1,000 skills** (same path, then a forced GC; CDP \`Performance.getMetrics\`):`,
  '',
  '| skills | serve → interactive | JS heap | JS heap after scrolling all rows | DOM nodes | table rows in the DOM (before / after scrolling) |',
  '|---:|---:|---:|---:|---:|---:|',
  `| ${m.skills} | ${m.loadMs.toFixed(0)} ms | ${m.heapMB.toFixed(1)} MiB | ${m.heapAfterScrollMB.toFixed(1)} MiB | ${m.domNodes} | ${m.rows} / ${m.rowsAfter} |`,
  '',
  `The table is virtualised: ${m.rows} of ${m.skills} rows exist in the DOM at a time, and scrolling to the end (last row rendered: \`${m.lastVisible}\`) does not grow it.`,
  END,
].join('\n');

process.stdout.write(
  `\nserve → interactive (200 skills): median ${med.toFixed(0)} ms (target < ${TARGET_MS} ms)\n1,000 skills: heap ${m.heapMB.toFixed(1)} MiB, ${m.domNodes} DOM nodes, ${m.rows} rows rendered\n`,
);
if (write) {
  writeResultsSection(BEGIN, END, section);
  process.stdout.write('wrote bench/RESULTS.md (desktop section)\n');
}
