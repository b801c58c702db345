#!/usr/bin/env node
// Desktop benchmark, over `skillsmith serve` and Debian's Chromium:
//   (1) serve → interactive dashboard at 200 and 1,000 generated skills, at the 185 real skills
//       of ../shared/corpus/real-skills (bundled files and all), and at 10 (the floor), on a
//       first launch (no kept scan: the page waits for the fresh one) and on a later launch
//       (the last run's scan paints at once, marked as not current, while the fresh scan
//       runs on the worker);
//       each run also records when the fresh scan replaced the kept one;
//   (2) the renderer's memory with 1,000 skills;
//   (3) main-thread long tasks (PerformanceObserver 'longtask') on every screen of the app
//       at 200 and 1,000 skills and on the real skills: each screen opened in a fresh page,
//       left to settle, then used (sort, filter, search, select, review) where it has
//       something to use;
//   (4) Costs and Matrix on the real skills: from the tab being opened (the dashboard's fresh
//       scan on screen) to the first rows painted, and to the fresh report's rows.
// Writes its own section of bench/RESULTS.md (between desktop-bench markers).
//
//   node bench/desktop.mjs [--runs N] [--no-write] [--only interactive|memory|longtasks|reports]
//
// "Interactive" = the visible rows of the skills table are rendered and the filter box
// answers: a typed filter narrows the table (checked inside the page, then cleared).
// Cold and warm runs alternate, each spawning a fresh `serve` and a fresh browser context.

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';
import { CORPUS, MARKERS, corpusSources, makeCorpusProject } from './lib/real-corpus.mjs';
import { screens } from './lib/desktop-screens.mjs';
import { CHROMIUM, failer, gitCommit, launchChromium, machine, startServe } from './lib/env.mjs';
import { median } from './lib/stats.mjs';
import { writeResultsSection } from './results-file.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
/** The project of the real-skills corpus, beside the generated ones (keyed by size). */
const REAL = 'real';
const TARGETS = { 200: 1500, 1000: 2500, [REAL]: 1500 };
/** Costs and Matrix: first paint after the tab is opened. */
const REPORT_TARGET = 1000;
/** A project with almost nothing to scan or show: what any launch pays on this machine before its skills count. */
const FLOOR = 10;
const LONG_TASK_LIMIT = 200;
const LONG_TASK_SIZES = [200, 1000, REAL];
const BEGIN = '<!-- desktop-bench:begin -->';
const END = '<!-- desktop-bench:end -->';

const fail = failer('desktop');

const argv = process.argv.slice(2);
let runs = 9;
let write = true;
let only = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs') runs = Number(argv[++i]);
  else if (argv[i] === '--no-write') write = false;
  else if (argv[i] === '--only') only = argv[++i];
  else fail(`unknown argument ${argv[i]}`);
}
if (!Number.isInteger(runs) || runs < 1) fail('--runs must be a positive integer');
if (only !== null && !['interactive', 'memory', 'longtasks', 'reports'].includes(only))
  fail(`--only: unknown part ${only}`);
if (!existsSync(CORPUS)) fail(`the real-skills corpus is missing at ${CORPUS} — no numbers recorded`);
if (only !== null) write = false;
if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing — no numbers recorded`);
if (!existsSync(join(ROOT, 'out', 'main', 'cli.js')) || !existsSync(join(ROOT, 'out', 'renderer', 'index.html')))
  fail('the app is not built — run "npm run build" first');
const part = (p) => only === null || only === p;

const realSources = corpusSources();
/** Made once per run, in a temporary folder, as bench/real-skills.mjs makes it; removed at the end. */
let realProject;
function project(count) {
  if (count === REAL) return (realProject ??= makeCorpusProject(realSources, MARKERS));
  const out = join(HERE, 'work', `desktop-${count}`);
  if (!existsSync(join(out, '.kitbash', 'skills'))) generate({ out, count });
  return out;
}
/** How a project is named in the tables. */
const label = (count) => (count === REAL ? `${realSources.length} real` : String(count));

async function stop(child) {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

/**
 * Resolves when the table shows rows and a typed filter narrows it: which scan is shown
 * (`data-scan`), and when (performance.now()) the rows were first seen.
 */
async function waitInteractive(page, expectRows) {
  // Generous timeouts: on a shared machine under load a launch can take ten times its quiet time.
  await page.waitForFunction((n) => document.querySelectorAll('.dash-tbody [role="row"]').length >= n, expectRows, {
    timeout: 180_000,
    polling: 'raf',
  });
  const rowsAt = performance.now();
  await page.fill('input[aria-label="Filter skills"]', 'zzzz-no-such-skill');
  await page.waitForSelector('.table-empty', { timeout: 60_000 });
  await page.fill('input[aria-label="Filter skills"]', '');
  const shown = await page.evaluate(() => document.querySelector('.dash-view')?.getAttribute('data-scan'));
  return { shown, rowsAt };
}

const freshScan = (page) =>
  page.waitForSelector('.dash-view[data-scan="fresh"] .dash-tbody [role="row"]', { timeout: 240_000 });

/**
 * One launch: spawn serve, load the page; ms from the spawn to each step (the URL printed, the
 * page's load event, rows drawn, interactive, the fresh scan shown) and which scan was interactive.
 */
async function launch(browser, dir, dataDir) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = await startServe(dir, dataDir);
  try {
    const urlAt = performance.now() - t0;
    await page.goto(url);
    const loaded = performance.now() - t0;
    const { shown, rowsAt } = await waitInteractive(page, 10);
    const interactive = performance.now() - t0;
    await freshScan(page);
    return { url: urlAt, loaded, rows: rowsAt - t0, interactive, fresh: performance.now() - t0, shown };
  } finally {
    await context.close();
    await stop(child);
  }
}

/** A real skill with many bundled files, reviewed by the install screen (never installed). */
const REVIEWED = realSources.find((s) => s.name === 'clinical-reports')?.dir ?? realSources[0].dir;
const screensOf = (count) => screens(readdirSync(join(project(count), '.kitbash', 'skills')).sort()[0], REVIEWED);
const SCREENS = screensOf(1000);

/** The two report screens: the route, a painted row, and which report it is (`data-report`). */
const REPORT_VIEWS = [
  { name: 'costs', hash: '#/costs', view: 'main.cost-view', row: '.cost-row' },
  { name: 'matrix', hash: '#/matrix', view: 'main.matrix-view', row: '.matrix-row[data-skill]' },
];

const loadBefore = os.loadavg()[0];
const browser = await launchChromium(['--disable-component-update', '--disable-sync']);
const data = mkdtempSync(join(os.tmpdir(), 'skillsmith-bench-desktop-'));
// The user's caches (lint reports, delivery checks) of this run alone, kept across its launches:
// a shared one is rewritten by every other build on the machine, each under its own engine stamp.
process.env.SKILLSMITH_CACHE_DIR ??= join(data, 'user-cache');
const results = { interactive: {}, memory: null, longtasks: {}, reports: null };
try {
  // (1) serve → interactive. A warm-up launch per size fills the disk cache, JITs the CLI and
  // keeps a scan in the warm data folder; then cold (empty data folder) and warm alternate.
  if (part('interactive'))
    for (const count of [FLOOR, 200, 1000, REAL]) {
      const dir = project(count);
      const warmData = join(data, `warm-${count}`);
      await launch(browser, dir, warmData);
      const r = { cold: [], warm: [] };
      for (let i = 0; i < runs; i++) {
        for (const kind of ['cold', 'warm']) {
          const one = await launch(browser, dir, kind === 'warm' ? warmData : join(data, `cold-${count}-${i}`));
          if (kind === 'warm' && one.shown !== 'cached' && one.shown !== 'fresh')
            fail(`unexpected scan mark ${one.shown}`);
          r[kind].push(one);
          process.stdout.write(
            `  ${label(count)} skills, ${kind} run ${i + 1}: interactive ${one.interactive.toFixed(0)} ms (${one.shown} scan), fresh ${one.fresh.toFixed(0)} ms\n`,
          );
        }
      }
      results.interactive[count] = r;
    }

  // (2) memory with 1,000 skills.
  const p1000 = project(1000);
  if (part('memory')) {
    const { child, url } = await startServe(p1000, join(data, 'mem'));
    try {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(url);
      await waitInteractive(page, 10);
      await freshScan(page);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await cdp.send('HeapProfiler.enable');
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (n) => metrics.find((m) => m.name === n)?.value ?? NaN;
      const rows = await page.evaluate(() => document.querySelectorAll('.dash-tbody [role="row"]').length);
      const skills = await page.evaluate(() =>
        Number(document.querySelector('[data-tile="skills"] .dash-tile-v')?.textContent ?? 'NaN'),
      );
      // Scroll the whole table once, then measure again: virtualisation keeps the row count flat.
      await page.evaluate(async () => {
        const body = document.querySelector('.dash-tbody');
        for (let y = 0; y <= body.scrollHeight; y += 2000) {
          body.scrollTop = y;
          await new Promise((r) => requestAnimationFrame(r));
        }
      });
      await cdp.send('HeapProfiler.collectGarbage');
      const after = (await cdp.send('Performance.getMetrics')).metrics;
      const rowsAfter = await page.evaluate(() => document.querySelectorAll('.dash-tbody [role="row"]').length);
      const lastVisible = await page.evaluate(() =>
        [...document.querySelectorAll('.dash-tbody [role="row"]')].at(-1)?.getAttribute('data-skill'),
      );
      results.memory = {
        skills,
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
  }

  // (3) long tasks on every screen at 200 and 1,000 skills (the editor and previews open the first skill).
  if (part('longtasks'))
    for (const count of LONG_TASK_SIZES) {
      const load = [os.loadavg()[0]];
      const { child, url } = await startServe(project(count), join(data, `longtasks-${count}`));
      const rows = [];
      try {
        for (const screen of screensOf(count)) {
          // A screen the harness cannot drive is reported as such; the other screens still count.
          const r = await longTasksOn(browser, url, screen).catch((e) => ({
            name: screen.name,
            failed: String(e.message ?? e).split('\n')[0],
            count: 0,
            max: 0,
            total: 0,
            over: [],
          }));
          rows.push(r);
          process.stdout.write(
            `  ${label(count)} skills, long tasks on ${screen.name}: ${r.count}, longest ${r.max.toFixed(0)} ms${r.over.length ? ` (over ${LONG_TASK_LIMIT} ms: ${r.over.map((x) => x.toFixed(0)).join(', ')})` : ''}\n`,
          );
        }
      } finally {
        await stop(child);
      }
      load.push(os.loadavg()[0]);
      results.longtasks[count] = { rows, load };
    }

  // (4) Costs and Matrix on the real skills, opened from the dashboard once its fresh scan is
  // shown. Cold: a first launch (empty data folder); warm: a later one (the data folder of the
  // warm-up and the earlier warm runs).
  if (part('reports')) {
    const dir = project(REAL);
    const warmData = join(data, 'reports-warm');
    for (const view of REPORT_VIEWS) await openReport(browser, dir, warmData, view);
    const r = Object.fromEntries(REPORT_VIEWS.map((v) => [v.name, { cold: [], warm: [] }]));
    for (let i = 0; i < runs; i++)
      for (const view of REPORT_VIEWS)
        for (const kind of ['cold', 'warm']) {
          const one = await openReport(browser, dir, kind === 'warm' ? warmData : join(data, `reports-${i}`), view);
          r[view.name][kind].push(one);
          process.stdout.write(
            `  ${label(REAL)} skills, ${view.name} ${kind} run ${i + 1}: first paint ${one.paint.toFixed(0)} ms (${one.shown}), fresh ${one.fresh.toFixed(0)} ms\n`,
          );
        }
    results.reports = r;
  }
} finally {
  await browser.close();
  rmSync(data, { recursive: true, force: true });
  if (realProject) rmSync(dirname(realProject), { recursive: true, force: true });
}

/**
 * One launch on the dashboard; once its fresh scan is shown, the report's tab is opened (a
 * hash change, as the tab bar does). Timed inside the page, from the change to the animation
 * frame where the first rows exist, and to the one where the fresh report's rows do.
 */
async function openReport(b, dir, dataDir, view) {
  const context = await b.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const { child, url } = await startServe(dir, dataDir);
  try {
    await page.goto(url);
    await freshScan(page);
    return await page.evaluate(async ({ hash, view: v, row }) => {
      const until = (test) =>
        new Promise((ok) => {
          const tick = () => (test() ? ok(performance.now()) : requestAnimationFrame(tick));
          tick();
        });
      const t0 = performance.now();
      location.hash = hash;
      const paint = await until(() => document.querySelector(`${v} ${row}`));
      const shown = document.querySelector(v)?.getAttribute('data-report') ?? 'fresh';
      const fresh = await until(() => document.querySelector(`${v}:not([data-report="cached"]) ${row}`));
      return { paint: paint - t0, fresh: fresh - t0, shown };
    }, view);
  } finally {
    await context.close();
    await stop(child);
  }
}

/** A fresh page on `screen`, its long tasks recorded from the first script on, through settling and use. */
async function longTasksOn(b, url, screen) {
  const context = await b.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  try {
    await page.goto(`${url}${screen.hash}`);
    await page.waitForSelector(screen.ready, { timeout: 90_000 });
    await settle(page);
    if (screen.use) {
      await screen.use(page);
      await settle(page);
    }
    const tasks = await page.evaluate(() => window.__longTasks);
    return {
      name: screen.name,
      count: tasks.length,
      max: Math.max(0, ...tasks),
      total: tasks.reduce((a, d) => a + d, 0),
      over: tasks.filter((d) => d > LONG_TASK_LIMIT),
    };
  } finally {
    await context.close();
  }
}

/** Until nothing is busy and no long task has started for 1.5 s (at most 20 s). */
async function settle(page) {
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], .skeleton'), null, { timeout: 60_000 })
    .catch(() => undefined);
  const end = Date.now() + 20_000;
  let seen = -1;
  while (Date.now() < end) {
    const n = await page.evaluate(() => window.__longTasks.length);
    if (n === seen) return;
    seen = n;
    await page.waitForTimeout(1500);
  }
}

const ms = (x) => `${x.toFixed(0)} ms`;
const stats = (xs) => `${ms(median(xs))} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))}`;
const commit = gitCommit();
const lines = [
  BEGIN,
  '## Desktop app (loopback host + renderer in Chromium)',
  '',
  `Written by \`node bench/desktop.mjs\` (projects from \`bench/generate.mjs\`: ${FLOOR}, 200 and 1,000 skills; and the ${realSources.length} skills of the real-skills corpus with their bundled files, copied into a project with every agent's marker folder as \`bench/real-skills.mjs\` does; Debian Chromium, headless).`,
  '',
  `- Date: ${new Date().toISOString()}; commit ${commit}; ${machine()}; Node ${process.version}`,
  `- Machine load (1-min load average) at start / end: ${loadBefore.toFixed(1)} / ${os.loadavg()[0].toFixed(1)} — the machine is shared, so read the numbers against it.`,
  '',
  `**serve → interactive dashboard** (spawn \`skillsmith serve --project\`, read its URL, load the page, table rendered and the filter answering; ${runs} cold and ${runs} warm runs, alternating, after one warm-up per size). *Cold*: a first launch, no kept scan, the page waits for the scan. *Warm*: a later launch — the last run's scan paints at once, marked "not current yet", while the fresh scan runs on the worker thread; *fresh* is when the fresh scan replaced it.`,
  '',
  '| skills | launch | interactive: median | min | max | fresh scan shown: median | min | max |',
  '|---:|---|---:|---:|---:|---:|---:|---:|',
];
for (const [count, r] of Object.entries(results.interactive))
  for (const kind of ['cold', 'warm'])
    lines.push(
      `| ${label(count)} | ${kind} | ${stats(r[kind].map((x) => x.interactive))} | ${stats(r[kind].map((x) => x.fresh))} |`,
    );
if (Object.keys(results.interactive).length)
  lines.push(
    '',
    "Where a launch's time goes: the median ms from the spawn to each step of the chain. Each step waits for the one before it, so a larger project adds only what its skills add to a step; the 10-skill rows are the chain with next to nothing to scan or render.",
    '',
    "| skills | launch | `serve` prints its URL | the page's load event (its scripts fetched and run) | table rows drawn (the first IPC answers, React's first paint) | the typed filter answers (interactive) |",
    '|---:|---|---:|---:|---:|---:|',
    ...Object.entries(results.interactive).flatMap(([count, r]) =>
      ['cold', 'warm'].map(
        (kind) =>
          `| ${label(count)} | ${kind} | ${['url', 'loaded', 'rows', 'interactive'].map((k) => ms(median(r[kind].map((x) => x[k])))).join(' | ')} |`,
      ),
    ),
  );
for (const [count, r] of Object.entries(results.interactive)) {
  const warm = median(r.warm.map((x) => x.interactive));
  const cold = median(r.cold.map((x) => x.interactive));
  if (!TARGETS[count]) {
    lines.push(
      '',
      `The floor, ${count} skills: warm ${ms(warm)}, first launch ${ms(cold)} — the same chain with next to nothing to scan or render (serve starting, the page and its scripts fetched and run by Chromium, the first IPC answers, React's first paint, the filter); a larger project's launch is this plus what its skills add.`,
    );
    continue;
  }
  const shown = r.warm.filter((x) => x.shown === 'cached').length;
  lines.push(
    '',
    `Target at ${label(count)} skills: interactive under ${TARGETS[count]} ms — warm launch **${warm < TARGETS[count] ? 'met' : 'not met'}** (${ms(warm)}; the kept scan was what made it interactive in ${shown} of ${r.warm.length} runs), first launch ${cold < TARGETS[count] ? 'met' : 'not met'} (${ms(cold)}).`,
  );
}
const m = results.memory;
if (m)
  lines.push(
    '',
    `**Renderer with 1,000 skills** (fresh scan shown, then a forced GC; CDP \`Performance.getMetrics\`):`,
    '',
    '| skills | JS heap | JS heap after scrolling all rows | DOM nodes | table rows in the DOM (before / after scrolling) |',
    '|---:|---:|---:|---:|---:|',
    `| ${m.skills} | ${m.heapMB.toFixed(1)} MiB | ${m.heapAfterScrollMB.toFixed(1)} MiB | ${m.domNodes} | ${m.rows} / ${m.rowsAfter} |`,
    '',
    `The table is virtualised: ${m.rows} of ${m.skills} rows exist in the DOM at a time, and scrolling to the end (last row rendered: \`${m.lastVisible}\`) does not grow it.`,
  );
const sizes = Object.keys(results.longtasks);
if (sizes.length) {
  const bad = sizes.flatMap((c) =>
    results.longtasks[c].rows.filter((r) => r.over.length).map((r) => `${r.name} (${label(c)})`),
  );
  lines.push(
    '',
    `**Main-thread long tasks per screen, ${sizes.map(label).join(', ')} skills** (PerformanceObserver \`longtask\` from the first script; each screen opened in a fresh page on its route, left to settle — nothing busy, no new long task for 1.5 s — then used as listed; load average at the start / end of each project: ${sizes.map((c) => `${label(c)}: ${results.longtasks[c].load.map((x) => x.toFixed(1)).join(' / ')}`).join(', ')}). A long task is one over 50 ms. Target: no task over ${LONG_TASK_LIMIT} ms — **${bad.length ? `not met on ${bad.join(', ')}` : 'met on every screen'}**.`,
    '',
    `| screen | what was done | ${sizes.map((c) => `${label(c)}: long tasks | > ${LONG_TASK_LIMIT} ms | longest | total`).join(' | ')} |`,
    `|---|---|${sizes.map(() => '---:|---:|---:|---:').join('|')}|`,
  );
  for (const s of SCREENS) {
    const cells = sizes.map((c) => {
      const r = results.longtasks[c].rows.find((x) => x.name === s.name);
      if (r?.failed) return `not measured: ${r.failed.replace(/\|/g, '/')} | — | — | —`;
      return r
        ? `${r.count} | ${r.over.length} | ${r.max > LONG_TASK_LIMIT ? `**${ms(r.max)}**` : ms(r.max)} | ${ms(r.total)}`
        : '— | — | — | —';
    });
    lines.push(`| ${s.name} | ${s.did.replace(/ on \S+$/, ' on the first skill')} | ${cells.join(' | ')} |`);
  }
}
const rep = results.reports;
if (rep)
  lines.push(
    '',
    `**Costs and Matrix on the ${label(REAL)} skills** (a launch on the dashboard; once its fresh scan is shown, the tab is opened; ms from opening it to the animation frame where its first rows exist, and to the one where the fresh report's rows do; ${runs} cold and ${runs} warm launches per screen, alternating, after one warm-up each). *Cold*: a first launch, nothing kept. *Warm*: a later launch, the last report kept from it. Target: first paint under ${REPORT_TARGET} ms.`,
    '',
    '| screen | launch | first paint: median | min | max | shown first (kept / fresh) | fresh report: median | min | max |',
    '|---|---|---:|---:|---:|---|---:|---:|---:|',
    ...REPORT_VIEWS.flatMap((v) =>
      ['cold', 'warm'].map((kind) => {
        const xs = rep[v.name][kind];
        const kept = xs.filter((x) => x.shown === 'cached').length;
        return `| ${v.name} | ${kind} | ${stats(xs.map((x) => x.paint))} | ${kept} / ${xs.length - kept} | ${stats(xs.map((x) => x.fresh))} |`;
      }),
    ),
    '',
    ...REPORT_VIEWS.map((v) => {
      const warm = median(rep[v.name].warm.map((x) => x.paint));
      const cold = median(rep[v.name].cold.map((x) => x.paint));
      return `Target for ${v.name}: first paint under ${REPORT_TARGET} ms — warm launch **${warm < REPORT_TARGET ? 'met' : 'not met'}** (${ms(warm)}), first launch ${cold < REPORT_TARGET ? 'met' : 'not met'} (${ms(cold)}).`;
    }),
  );
lines.push(END);

process.stdout.write('\n');
for (const [count, r] of Object.entries(results.interactive))
  process.stdout.write(
    `serve → interactive (${label(count)} skills): cold ${ms(median(r.cold.map((x) => x.interactive)))}, warm ${ms(median(r.warm.map((x) => x.interactive)))} (${TARGETS[count] ? `target < ${TARGETS[count]} ms` : 'the floor'})\n`,
  );
if (m)
  process.stdout.write(
    `1,000 skills: heap ${m.heapMB.toFixed(1)} MiB, ${m.domNodes} DOM nodes, ${m.rows} rows rendered\n`,
  );
if (write) {
  writeResultsSection(BEGIN, END, lines.join('\n'));
  process.stdout.write('wrote bench/RESULTS.md (desktop section)\n');
}
