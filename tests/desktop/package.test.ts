/**
 * The packaged app's layout: electron-builder builds the unpacked app directory (`--dir`)
 * from electron-builder.yml and the test reads its app.asar with @electron/asar.
 *
 * With this machine's Electron distribution (node_modules/electron/dist) the real config
 * is packed, fuses and all. Without one (offline CI) that case is a named skip, which
 * SKILLSMITH_REQUIRE_ELECTRON=1 turns into a failure — and the same config is packed
 * around a stand-in distribution (fuses off: they patch the real binary), so the asar
 * electron-builder writes is still checked: main, preload, renderer, the workers loadable
 * from the archive's own files, the production dependencies, the example workspace, and
 * the Linux desktop entry.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { MessageChannel, Worker } from 'node:worker_threads';
import * as asar from '@electron/asar';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, requireOrSkip } from '../support/paths';

const { electronBinary } = createRequire(import.meta.url)('../../main/electron/launch.cjs') as {
  electronBinary: () => string | undefined;
};
const realDist = electronBinary() ? join(repoRoot, 'node_modules', 'electron', 'dist') : undefined;
const requireElectron = process.env.SKILLSMITH_REQUIRE_ELECTRON === '1';
const built = requireOrSkip(
  'the built app (npm run build)',
  existsSync(join(repoRoot, 'out', 'main', 'index.js')) && existsSync(join(repoRoot, 'out', 'renderer', 'index.html')),
);

const work = mkdtempSync(join(tmpdir(), 'skillsmith-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes the hook that has electron-builder's own Linux helper write the .desktop entry for this config. */
function desktopHook(dest: string): string {
  const hook = join(work, 'after-pack.cjs');
  writeFileSync(
    hook,
    `const { LinuxTargetHelper } = require(${JSON.stringify(join(repoRoot, 'node_modules/app-builder-lib/out/targets/LinuxTargetHelper.js'))});
     exports.default = async (context) => {
       const helper = new LinuxTargetHelper(context.packager);
       await helper.writeDesktopEntry(context.packager.platformSpecificBuildOptions, null, ${JSON.stringify(dest)});
     };\n`,
  );
  return hook;
}

/** Runs `electron-builder --dir --linux` on electron-builder.yml with the overrides; returns the app directory. */
function pack(
  name: string,
  overrides: (config: Record<string, unknown>) => void,
): { appDir: string; desktopFile: string } {
  const config = parse(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
  const output = join(work, name);
  const desktopFile = join(work, `${name}.desktop`);
  config.directories = { output };
  config.afterPack = desktopHook(desktopFile);
  overrides(config);
  const configFile = join(work, `${name}.json`);
  writeFileSync(configFile, JSON.stringify(config));
  const bin = join(repoRoot, 'node_modules', '.bin', 'electron-builder');
  const r = spawnSync(bin, ['--config', configFile, '--dir', '--linux', '--x64'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, CI: '1' },
  });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  return { appDir: join(output, 'linux-unpacked'), desktopFile };
}

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), base) : [relative(base, join(dir, e.name))],
  );
}

/** Loads a worker file in a worker thread and resolves with its exit code or first error. */
function runWorker(
  file: string,
  options: ConstructorParameters<typeof Worker>[1],
  message?: unknown,
): Promise<{ code?: number; error?: string; reply?: unknown }> {
  return new Promise((done) => {
    const w = new Worker(file, options);
    w.on('error', (e) => done({ error: e.message }));
    w.on('message', (reply) => {
      void w.terminate();
      done({ reply });
    });
    w.on('exit', (code) => done({ code }));
    if (message !== undefined) w.postMessage(message);
  });
}

async function checkLayout(appDir: string, desktopFile: string): Promise<void> {
  const archive = join(appDir, 'resources', 'app.asar');
  const listed = new Set(
    asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/\\/g, '/').replace(/^\//, '')),
  );

  // Every built file and the manifest, nothing of the sources, tests or dev tooling — nor the
  // renderer's test build (out/renderer-test, with the e2e hooks).
  for (const f of filesUnder(join(repoRoot, 'out'))) {
    const path = `out/${f.replace(/\\/g, '/')}`;
    expect(listed.has(path), path).toBe(!path.startsWith('out/renderer-test/'));
  }
  for (const f of [
    'package.json',
    'out/main/index.js',
    'out/main/cli.js',
    'out/main/scan-worker.js',
    'out/main/lint-worker.js',
    'out/preload/index.cjs',
    'out/renderer/index.html',
  ]) {
    expect(listed.has(f), f).toBe(true);
  }
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  for (const dep of Object.keys(pkg.dependencies))
    expect(listed.has(`node_modules/${dep}/package.json`), dep).toBe(true);
  for (const dev of ['electron', 'vitest', 'monaco-editor', 'electron-builder', 'kitbash'])
    expect(listed.has(`node_modules/${dev}/package.json`), dev).toBe(false);
  expect([...listed].filter((f) => /^(main|renderer|shared|preload|tests|e2e|bench|spec)\//.test(f))).toEqual([]);
  const packedPkg = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as {
    main: string;
    desktopName: string;
  };
  expect(packedPkg.main).toBe('out/main/index.js');

  // The example workspace beside the asar, a real folder (the app opens it on first run).
  const example = join(appDir, 'resources', 'examples', 'workspace');
  expect(filesUnder(example).sort()).toEqual(filesUnder(join(repoRoot, 'examples', 'workspace')).sort());

  // The workers load from the archive's own files: extract it and run them with a job.
  const extracted = join(appDir, '..', 'extracted');
  asar.extractAll(archive, extracted);
  const scan = await runWorker(
    join(extracted, 'out/main/scan-worker.js'),
    {},
    { id: 1, job: { kind: 'scan', root: example } },
  );
  expect(scan.error).toBeUndefined();
  expect(scan.reply).toMatchObject({ id: 1, ok: true });
  const { port2 } = new MessageChannel();
  const lint = await runWorker(join(extracted, 'out/main/lint-worker.js'), {
    workerData: { state: new SharedArrayBuffer(8), locations: [], options: {}, port: port2 },
    transferList: [port2],
  });
  expect(lint).toEqual({ code: 0 });

  // The Linux desktop entry electron-builder writes for AppImage/deb from this config.
  const entry = readFileSync(desktopFile, 'utf8');
  expect(entry).toMatch(/^\[Desktop Entry\]$/m);
  expect(entry).toMatch(/^Name=Skillsmith$/m);
  expect(entry).toMatch(/^Exec=\/opt\/Skillsmith\/skillsmith-desktop %U$/m);
  expect(entry).toMatch(/^Icon=skillsmith-desktop$/m);
  expect(entry).toMatch(/^StartupWMClass=skillsmith-desktop$/m);
  expect(entry).toMatch(/^Categories=Development;$/m);
  expect(entry).toMatch(/^Terminal=false$/m);
  expect(packedPkg.desktopName).toBe('skillsmith-desktop.desktop');
}

describe.skipIf(!built)('packaged app (electron-builder --dir)', () => {
  const realName =
    "with this machine's Electron distribution (needs node_modules/electron/dist; required when SKILLSMITH_REQUIRE_ELECTRON=1)";
  it.skipIf(!realDist && !requireElectron)(
    realName,
    async () => {
      expect(
        realDist,
        'SKILLSMITH_REQUIRE_ELECTRON=1 but node_modules/electron has no binary — run "npm start" once online, or install-electron',
      ).toBeDefined();
      const { appDir, desktopFile } = pack('real', (c) => {
        c.electronDist = realDist;
      });
      await checkLayout(appDir, desktopFile);
    },
    300_000,
  );

  it('with a stand-in Electron distribution: the same asar layout', async () => {
    const dist = join(work, 'stand-in-dist');
    mkdirSync(dist);
    writeFileSync(join(dist, 'electron'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const version = (
      JSON.parse(readFileSync(join(repoRoot, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
    ).version;
    writeFileSync(join(dist, 'version'), version);
    const { appDir, desktopFile } = pack('stand-in', (c) => {
      c.electronDist = dist;
      // The fuses patch sentinels in the real Electron binary; the stand-in has none.
      delete c.electronFuses;
    });
    expect(existsSync(join(appDir, 'skillsmith-desktop'))).toBe(true);
    await checkLayout(appDir, desktopFile);
  }, 300_000);
});
