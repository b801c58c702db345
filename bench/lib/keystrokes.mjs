// The two keystroke-latency benches (bench/editor.mjs, bench/previews.mjs): their flags,
// their rows, and the screen measurement in Chromium over `skillsmith serve`.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, launchChromium, ROOT, startServe } from './env.mjs';
import { fmtLatency, percentile } from './stats.mjs';

/**
 * `[--keys N] [--browser-keys N] [--no-browser] [--no-write] [--reference DIR [--reference-label T]] [--rounds N]`;
 * `fail` reports a bad one. `--reference`: another renderer build (with the test hook) to
 * measure against at the largest size, alternating rounds with this build.
 */
export function keystrokeOptions(fail) {
  const opts = { keys: 200, browserKeys: 60, browser: true, write: true, reference: null, label: null, rounds: 4 };
  for (let i = 2; i < process.argv.length; i++) {
    const a = process.argv[i];
    if (a === '--keys') opts.keys = Number(process.argv[++i]);
    else if (a === '--browser-keys') opts.browserKeys = Number(process.argv[++i]);
    else if (a === '--no-browser') opts.browser = false;
    else if (a === '--no-write') opts.write = false;
    else if (a === '--reference') opts.reference = process.argv[++i];
    else if (a === '--reference-label') opts.label = process.argv[++i];
    else if (a === '--rounds') opts.rounds = Number(process.argv[++i]);
    else fail(`unknown argument: ${a}`);
  }
  if (!(opts.keys >= 10) || !(opts.browserKeys >= 10)) fail('--keys and --browser-keys must be at least 10');
  if (!(opts.rounds >= 1)) fail('--rounds must be at least 1');
  if (opts.reference && !existsSync(join(opts.reference, 'index.html')))
    fail(`--reference ${opts.reference}: no index.html there (a built renderer folder)`);
  return opts;
}

/** One body size's row (median, p95, count, plus `extra`), reported on stdout as `<label> <tokens>: …`. */
export function latencyRow(label, tokens, times, extra = {}) {
  const row = {
    tokens,
    ...extra,
    median: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    n: times.length,
  };
  process.stdout.write(
    `${label} ${tokens}: median ${fmtLatency(row.median)} ms, p95 ${fmtLatency(row.p95)} ms (${row.n} keys)\n`,
  );
  return row;
}

/** A results table row: body size, the measured body when the row has one, keys, median, p95. */
export function tableRow(r) {
  const measured = r.bodyTokens === undefined ? '' : ` ${r.bodyTokens.toLocaleString('en-US')} tok |`;
  return `| ${r.tokens.toLocaleString('en-US')} tok |${measured} ${r.n} | ${fmtLatency(r.median)} ms | ${fmtLatency(r.p95)} ms |`;
}

/** The renderer build with the test hooks the screen measurements read (`npm run build` makes it). */
export const TEST_RENDERER = join(ROOT, 'out', 'renderer-test');

/** Why the screen latency cannot be measured here, or '' when it can (`renderer`: the build served). */
export function screenUnavailable(renderer = join(ROOT, 'out', 'renderer')) {
  if (!existsSync(CHROMIUM)) return `Chromium not found at ${CHROMIUM}: screen latency not measured.`;
  if (!existsSync(join(renderer, 'index.html')))
    return `${renderer} is not built (npm run build): screen latency not measured.`;
  return '';
}

/**
 * For each body size: `prepare(dir, tokens)` writes the project into `<work>/screen-<tokens>`,
 * `skillsmith serve` runs on it (serving `renderer` when given) with a fresh data folder,
 * and `measure(page, url, tokens)` returns the size's row from a new 1440×900 page.
 * Everything is removed afterwards.
 */
export async function onScreen({ name, work, sizes, prepare, measure, renderer }) {
  const rows = [];
  const browser = await launchChromium();
  try {
    for (const tokens of sizes) {
      const dir = join(work, `screen-${tokens}`);
      prepare(dir, tokens);
      const data = mkdtempSync(join(os.tmpdir(), `skillsmith-bench-${name}-`));
      const { child, url } = await startServe(dir, data, { renderer });
      try {
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        rows.push(await measure(page, url, tokens));
        await page.close();
      } finally {
        child.kill('SIGTERM');
        rmSync(data, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}
