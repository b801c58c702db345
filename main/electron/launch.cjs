#!/usr/bin/env node
'use strict';
// `npm start`, `npm run web` and `npm run dist`: build when the sources are newer than
// out/, then start the desktop app in Electron, the browser host, or the packager. Plain
// Node on purpose: requiring the electron package downloads its binary synchronously with
// no way to fall back, so the binary is looked up on disk the way the package does, and a
// missing one is fetched by running the package's own installer here, where a failure
// can turn into the browser mode instead of a crash.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const mode = process.argv[2] === '--web' ? 'web' : process.argv[2] === '--dist' ? 'dist' : 'desktop';
const passThrough = process.argv.slice(mode === 'desktop' ? 2 : 3);
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 };

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
  const outputs = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map(
    (f) => join(root, f),
  );
  const builtAt = Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
  const sources = Math.max(
    ...['main', 'shared', 'preload', 'renderer'].map((d) => newest(join(root, d))),
    statSync(join(root, 'package.json')).mtimeMs,
  );
  if (builtAt > sources) return;
  process.stderr.write('skillsmith: building…\n');
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) {
    process.stderr.write(
      'skillsmith: the build failed (see above) — fix it, or run "npm run build" for the full log\n',
    );
    process.exit(r.status ?? 1);
  }
}

/** The Electron executable, or undefined when this machine has none yet (never downloads). */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const rel = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(
      process.env.ELECTRON_OVERRIDE_DIST_PATH,
      rel || (process.platform === 'win32' ? 'electron.exe' : 'electron'),
    );
    return existsSync(p) ? p : undefined;
  }
  if (!rel) return undefined;
  const p = join(pkg, 'dist', rel);
  return existsSync(p) ? p : undefined;
}

function electronVersion() {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Relays Ctrl+C / SIGTERM to the child instead of dying first (the child gets the
 * terminal's SIGINT too; this keeps the parent alive to report its exit). Returns the
 * remover.
 */
function relaySignals(child) {
  const handlers = Object.keys(SIGNAL_EXIT).map((sig) => {
    const h = () => child.kill(sig);
    process.on(sig, h);
    return [sig, h];
  });
  return () => handlers.forEach(([sig, h]) => process.off(sig, h));
}

/** Runs a command to its end and exits with its code (128 + signal number when killed). */
function run(cmd, args, env) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  relaySignals(child);
  child.on('error', (e) => {
    process.stderr.write(`skillsmith: could not start ${cmd}: ${e.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(signal ? (SIGNAL_EXIT[signal] ?? 1) : (code ?? 0)));
}

/**
 * Runs the electron package's own installer (node_modules/electron/install.js, what
 * `require('electron')` runs on first use). Its progress bar goes straight to this
 * terminal; its console.error output (a stack trace when the download fails) is captured
 * on fd 3 so a failure is reported in one line. Resolves with { ok, reason, signal }.
 */
function installElectron() {
  // SKILLSMITH_ELECTRON_INSTALLER only exists for the launcher's tests (a stand-in installer).
  const installer = process.env.SKILLSMITH_ELECTRON_INSTALLER || join(root, 'node_modules', 'electron', 'install.js');
  const shim =
    "const {writeSync}=require('node:fs');const {format}=require('node:util');console.error=(...a)=>{try{writeSync(3,format(...a)+'\\n')}catch{}};require(process.argv[1]);";
  return new Promise((done) => {
    const child = spawn(process.execPath, ['-e', shim, installer], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    });
    const unrelay = relaySignals(child);
    let captured = '';
    child.stdio[3].on('data', (d) => (captured += d));
    child.on('error', (e) => done({ ok: false, reason: e.message }));
    child.on('close', (code, signal) => {
      unrelay();
      done({
        ok: code === 0 && !signal,
        signal,
        reason: firstLine(captured) || (signal ? `stopped by ${signal}` : `the installer exited with code ${code}`),
      });
    });
  });
}

/** The error's message from a captured stack trace: its first non-empty line, without "Error: ". */
function firstLine(text) {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? '';
  return line.replace(/^(?:\w*Error: )/, '');
}

/** Browser mode: `skillsmith serve`, opening a browser when this machine has a display. */
function startWeb(args) {
  const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  run(process.execPath, [join(root, 'bin', 'skillsmith.cjs'), 'serve', ...(hasDisplay ? ['--open'] : []), ...args]);
}

/** `npm start`'s project argument, as serve's flags: the folder given, else the last project or the example. */
function serveArgsFor(desktopArgs) {
  const project = desktopArgs.find((a) => !a.startsWith('-'));
  return project ? ['--project', project] : ['--example'];
}

async function startDesktop() {
  let electron = electronBinary();
  if (!electron) {
    const version = electronVersion();
    process.stderr.write(
      `skillsmith: downloading Electron${version ? ` ${version}` : ''} for this machine (once, about 100 MB)…\n`,
    );
    const r = await installElectron();
    if (r.signal) process.exit(SIGNAL_EXIT[r.signal] ?? 1);
    electron = r.ok ? electronBinary() : undefined;
    if (!electron) {
      const why = r.ok ? 'the installer left no binary' : r.reason;
      process.stderr.write(
        `skillsmith: could not download Electron (${why}) — starting Skillsmith in your browser instead\n`,
      );
      startWeb(serveArgsFor(passThrough));
      return;
    }
  }
  delete process.env.ELECTRON_RUN_AS_NODE;
  run(electron, ['.', ...passThrough], {});
}

function main() {
  buildIfNeeded();
  if (mode === 'web') {
    startWeb(passThrough);
  } else if (mode === 'dist') {
    const builder = join(
      root,
      'node_modules',
      '.bin',
      process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder',
    );
    if (!existsSync(builder)) {
      process.stdout.write(
        'skillsmith: electron-builder is not installed here — run "npm ci" first; "npm run web" runs the app without packaging.\n',
      );
      process.exit(1);
    }
    // electron-builder fetches the Electron distribution for each target itself (its own cache).
    run(builder, ['--config', 'electron-builder.yml', ...passThrough]);
  } else {
    void startDesktop();
  }
}

module.exports = { electronBinary, root };
if (require.main === module) main();
