/**
 * `npm start` / `npm run dist` behaviour (main/electron/launch.cjs) and the packaging
 * config. No Electron here: a stand-in executable under ELECTRON_OVERRIDE_DIST_PATH
 * proves the launch path, and its absence proves the one-line pointer to `npm run web`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

const launcher = join(repoRoot, 'main/electron/launch.cjs');

function launch(args: string[], env: Record<string, string | undefined>) {
  const r = spawnSync(process.execPath, [launcher, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, SKILLSMITH_SKIP_BUILD: '1', ...env }, timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('npm start', () => {
  it('without an Electron binary prints one line pointing at npm run web, and no stack trace', () => {
    const empty = mkdtempSync(join(tmpdir(), 'skillsmith-noelectron-'));
    try {
      const r = launch([], { ELECTRON_OVERRIDE_DIST_PATH: empty });
      expect(r.code).toBe(0);
      expect(r.out).toBe('skillsmith: the Electron binary is not available on this machine — run "npm run web" to use Skillsmith in your browser instead.\n');
      expect(r.err).toBe('');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('with a binary launches it on the app, passing a project folder through and the exit code back', () => {
    const dist = mkdtempSync(join(tmpdir(), 'skillsmith-fakeelectron-'));
    try {
      const fake = join(dist, 'electron');
      writeFileSync(fake, `#!/bin/sh\necho "electron $* ELECTRON_RUN_AS_NODE=\${ELECTRON_RUN_AS_NODE:-unset}"\nexit 3\n`);
      chmodSync(fake, 0o755);
      const r = launch(['examples/workspace'], { ELECTRON_OVERRIDE_DIST_PATH: dist, ELECTRON_RUN_AS_NODE: '1' });
      expect(r.out).toBe('electron . examples/workspace ELECTRON_RUN_AS_NODE=unset\n');
      expect(r.code).toBe(3);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('package.json runs the launcher for start, web and dist', () => {
    const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
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
    expect(config.files).toEqual(['out/**', 'package.json']);
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
