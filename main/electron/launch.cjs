#!/usr/bin/env node
'use strict';
// `npm start`, `npm run web` and `npm run dist`: build when the sources are newer than
// out/, then start the desktop app in Electron, the browser host, or the packager. Plain
// Node on purpose: requiring the electron package would try to download its binary, so
// the binary is looked up on disk the way the package itself does, without loading it.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const mode = process.argv[2] === '--web' ? 'web' : process.argv[2] === '--dist' ? 'dist' : 'desktop';
const passThrough = process.argv.slice(mode === 'desktop' ? 2 : 3);

function newest(dir) {
  let t = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function buildIfNeeded() {
  if (process.env.SKILLSMITH_SKIP_BUILD === '1') return;
  const outputs = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((f) => join(root, f));
  const builtAt = Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
  const sources = Math.max(...['main', 'shared', 'preload', 'renderer'].map((d) => newest(join(root, d))), statSync(join(root, 'package.json')).mtimeMs);
  if (builtAt > sources) return;
  process.stderr.write('skillsmith: building…\n');
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write('skillsmith: the build failed (see above) — fix it, or run "npm run build" for the full log\n');
    process.exit(r.status ?? 1);
  }
}

/** The Electron executable, or undefined when this machine has none (never downloads). */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const rel = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, rel || (process.platform === 'win32' ? 'electron.exe' : 'electron'));
    return existsSync(p) ? p : undefined;
  }
  if (!rel) return undefined;
  const p = join(pkg, 'dist', rel);
  return existsSync(p) ? p : undefined;
}

function run(cmd, args, env) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

function main() {
  buildIfNeeded();

  if (mode === 'web') {
    run(process.execPath, [join(root, 'bin', 'skillsmith.cjs'), 'serve', '--open', ...passThrough]);
  } else if (mode === 'dist') {
    const builder = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder');
    if (!existsSync(builder)) {
      process.stdout.write('skillsmith: electron-builder is not installed here — packaging needs it (npm i -D electron-builder; Node >= 22.12 and network); "npm run web" runs the app without packaging.\n');
      process.exit(0);
    }
    if (!electronBinary()) {
      process.stdout.write('skillsmith: no Electron binary on this machine, so nothing can be packaged here — "npm run web" runs the app in your browser instead.\n');
      process.exit(0);
    }
    run(builder, ['--config', 'electron-builder.yml', ...passThrough]);
  } else {
    const electron = electronBinary();
    if (!electron) {
      process.stdout.write('skillsmith: the Electron binary is not available on this machine — run "npm run web" to use Skillsmith in your browser instead.\n');
      process.exit(0);
    }
    const env = {};
    delete process.env.ELECTRON_RUN_AS_NODE;
    run(electron, ['.', ...passThrough], env);
  }
}

module.exports = { electronBinary, root };
if (require.main === module) main();
