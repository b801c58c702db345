// What the benches share around the measuring: the machine they ran on, the commit, the
// engine bundled from the TypeScript sources, and Chromium over `skillsmith serve`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];

/** The CPU model, whitespace collapsed (`fallback` when Node cannot tell). */
export function cpuModel(fallback = 'unknown CPU') {
  return os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? fallback;
}

/** "<CPU model>, <n> cores" — the machine as the RESULTS.md sections name it. */
export function machine(fallback) {
  return `${cpuModel(fallback)}, ${os.cpus().length} cores`;
}

/** The checkout's short HEAD, or "unknown" outside a git checkout. */
export function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Bundles the given exports of the TypeScript sources for Node with rolldown (the same
 * code the app runs) and imports the bundle. `exports` maps a source path relative to the
 * repository root to the names it exports; `entry` and `out` are files in `dir`.
 */
export async function bundleEngine(dir, exports, { entry = 'entry.mjs', out = 'engine.mjs' } = {}) {
  mkdirSync(dir, { recursive: true });
  const input = join(dir, entry);
  const file = join(dir, out);
  writeFileSync(
    input,
    [
      ...Object.entries(exports).map(
        ([path, names]) => `export { ${names.join(', ')} } from ${JSON.stringify(join(ROOT, path))};`,
      ),
      '',
    ].join('\n'),
  );
  const { build } = await import('rolldown');
  await build({ input, platform: 'node', logLevel: 'silent', output: { file, format: 'esm' } });
  return import(pathToFileURL(file).href);
}

/** Headless Chromium through playwright-core; `args` are added to the common flags. */
export async function launchChromium(args = []) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args] });
}

/**
 * Spawns `skillsmith serve --project <project>` with its own data folder and resolves with
 * the child and the URL it prints; rejects if it exits first or prints none in 30 s.
 * `renderer`: another build of the renderer to serve (out/renderer-test has the test hooks).
 */
export function startServe(project, dataDir, { renderer } = {}) {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'skillsmith.cjs'), 'serve', '--project', project], {
    cwd: ROOT,
    env: { ...process.env, SKILLSMITH_DATA_DIR: dataDir, ...(renderer ? { SKILLSMITH_RENDERER_DIR: renderer } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ok, no) => {
    let out = '';
    let err = '';
    const t = setTimeout(() => no(new Error('serve printed no URL')), 30_000);
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /^Skillsmith running at (\S+)$/m.exec(out);
      if (m) {
        clearTimeout(t);
        ok({ child, url: m[1] });
      }
    });
    child.once('exit', (c) => {
      clearTimeout(t);
      no(new Error(`serve exited ${c}: ${err.trim()}`));
    });
  });
}

/** The bench's way out: `bench/<name>: <message>` on stderr, exit status 1. */
export function failer(name) {
  return (message) => {
    process.stderr.write(`bench/${name}: ${message}\n`);
    process.exit(1);
  };
}
