/**
 * `npm start` / `npm run dist` behaviour (main/electron/launch.cjs) and the packaging
 * config. No network and no Electron here: stand-in installers (SKILLSMITH_ELECTRON_INSTALLER)
 * play the electron package's install.js — one writes a stand-in binary under
 * ELECTRON_OVERRIDE_DIST_PATH, one fails like an offline download, one hangs for Ctrl+C —
 * and the browser fallback is the real `skillsmith serve` from out/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

const launcher = join(repoRoot, 'main/electron/launch.cjs');
const electronVersion = (
  JSON.parse(readFileSync(join(repoRoot, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const downloading = `skillsmith: downloading Electron ${electronVersion} for this machine (once, about 100 MB)…\n`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillsmith-launch-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  // No display: the browser fallback must not try to open one from a test.
  return {
    ...process.env,
    SKILLSMITH_SKIP_BUILD: '1',
    SKILLSMITH_DATA_DIR: join(dir, 'data'),
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
    ...extra,
  };
}

function launch(args: string[], extra: Record<string, string>) {
  const r = spawnSync(process.execPath, [launcher, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: env(extra),
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function installer(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

/** Starts the launcher in the background; `until(re)` waits for a line on stdout or stderr. */
function launchAsync(extra: Record<string, string>) {
  const child = spawn(process.execPath, [launcher], { cwd: repoRoot, env: env(extra) });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const until = async (re: RegExp) => {
    for (let i = 0; i < 600 && !re.test(out + err); i++) await new Promise((r) => setTimeout(r, 50));
    return re.exec(out + err);
  };
  return { child, exited, until, out: () => out, err: () => err };
}

describe('npm start', () => {
  it('with no binary runs the installer (progress shown) and then launches the binary it installed', () => {
    const dist = join(dir, 'dist');
    const inst = installer(
      'ok.js',
      `const fs = require('fs');
       process.stderr.write('Downloading electron.zip: [====] 100%\\n');
       fs.mkdirSync(${JSON.stringify(dist)}, { recursive: true });
       fs.writeFileSync(${JSON.stringify(join(dist, 'electron'))}, '#!/bin/sh\\necho "electron $*"\\nexit 4\\n', { mode: 0o755 });`,
    );
    const r = launch(['examples/workspace'], {
      ELECTRON_OVERRIDE_DIST_PATH: dist,
      SKILLSMITH_ELECTRON_INSTALLER: inst,
    });
    expect(r.err).toBe(`${downloading}Downloading electron.zip: [====] 100%\n`);
    expect(r.out).toBe('electron . examples/workspace\n');
    expect(r.code).toBe(4);
  });

  it('when the download fails says so in one line and serves the app in the browser on the example, until Ctrl+C', async () => {
    const inst = installer(
      'offline.js',
      `console.error(new Error('getaddrinfo ENOTFOUND github.com').stack); process.exit(1);`,
    );
    const run = launchAsync({ ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'none'), SKILLSMITH_ELECTRON_INSTALLER: inst });
    try {
      const m = await run.until(/Skillsmith running at (\S+)\n/);
      expect(m, run.out() + run.err()).not.toBeNull();
      expect(run.err()).toBe(
        `${downloading}skillsmith: could not download Electron (getaddrinfo ENOTFOUND github.com) — starting Skillsmith in your browser instead\n`,
      );
      await run.until(/press Ctrl\+C/);
      expect(run.out()).toContain(`project: ${join(repoRoot, 'examples', 'workspace')}\n`);
      const page = await fetch(m![1]!);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<div id="root">/);
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('Ctrl+C during the download stops with 130 and starts nothing else', async () => {
    const inst = installer(
      'slow.js',
      `process.stderr.write('Downloading electron.zip: [=   ] 10%\\n'); setInterval(() => {}, 1000);`,
    );
    const run = launchAsync({ ELECTRON_OVERRIDE_DIST_PATH: join(dir, 'none'), SKILLSMITH_ELECTRON_INSTALLER: inst });
    try {
      expect(await run.until(/10%/)).not.toBeNull();
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
      expect(run.out()).toBe('');
      expect(run.err()).toBe(`${downloading}Downloading electron.zip: [=   ] 10%\n`);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('with a binary launches it on the app, passing a project folder through and the exit code back', () => {
    const dist = join(dir, 'dist');
    const inst = installer(
      'never.js',
      `require('fs').writeFileSync(${JSON.stringify(join(dir, 'ran'))}, ''); process.exit(1);`,
    );
    mkdirSync(dist);
    const fake = join(dist, 'electron');
    writeFileSync(fake, `#!/bin/sh\necho "electron $* ELECTRON_RUN_AS_NODE=\${ELECTRON_RUN_AS_NODE:-unset}"\nexit 3\n`);
    chmodSync(fake, 0o755);
    const r = launch(['examples/workspace'], {
      ELECTRON_OVERRIDE_DIST_PATH: dist,
      ELECTRON_RUN_AS_NODE: '1',
      SKILLSMITH_ELECTRON_INSTALLER: inst,
    });
    expect(r.out).toBe('electron . examples/workspace ELECTRON_RUN_AS_NODE=unset\n');
    expect(r.err).toBe('');
    expect(r.code).toBe(3);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('package.json runs the launcher for start, web and dist', () => {
    const scripts = (
      JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toBe('node main/electron/launch.cjs');
    expect(scripts.web).toBe('node main/electron/launch.cjs --web');
    expect(scripts.dist).toBe('node main/electron/launch.cjs --dist');
  });
});

describe('packaging config (electron-builder.yml)', () => {
  const config = parse(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
    electronFuses: Record<string, boolean>;
    linux: { target: string[] };
    mac: { target: string[] };
    win: { target: string[] };
    files: string[];
    icon: string;
  };

  it('targets AppImage + deb, dmg and nsis, with an app id, product name and icon', () => {
    expect(config.appId).toBe('dev.skillsmith.app');
    expect(config.productName).toBe('Skillsmith');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    const png = readFileSync(join(repoRoot, config.icon));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    // The build, without the renderer's test build (it carries the e2e hooks), and package.json.
    expect(config.files).toEqual(['out/**', '!out/renderer-test/**', 'package.json']);
  });

  it('flips the security fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });
});
