/**
 * Setting up a clone (issue 42, D195): package.json, the README and the line `npm ci` ends
 * with agree with the Node ranges the installed packages declare — the app's own `engines`
 * for the CLI, tests and browser mode, Electron's for the desktop app.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/paths';

const { nextStep, declaredNode } = createRequire(import.meta.url)('../../tooling/next-step.cjs') as {
  nextStep: (version: string, app?: string, electron?: string) => string;
  declaredNode: (pkgJson: string) => string | undefined;
};
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const electronRange = declaredNode(join(repoRoot, 'node_modules', 'electron', 'package.json'))!;
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

describe('which Node each mode needs', () => {
  it('the README states both minimums, as package.json and Electron declare them', () => {
    const app = semver.minVersion(pkg.engines.node)!;
    const desktop = semver.minVersion(electronRange)!;
    expect(semver.gt(desktop, app)).toBe(true);
    const rows = readme.split('\n').filter((l) => l.startsWith('| the '));
    expect(rows.find((r) => r.includes('npm run web'))).toContain(`${app.major}.${app.minor} or newer`);
    expect(rows.find((r) => r.includes('npm start'))).toContain(`${desktop.major}.${desktop.minor} or newer`);
  });

  it('npm ci ends with the next step: the prepare script runs the build, then the message', () => {
    expect(pkg.scripts.prepare).toBe('npm run build && node tooling/next-step.cjs');
    const r = spawnSync(process.execPath, [join(repoRoot, 'tooling', 'next-step.cjs')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([nextStep(process.version, pkg.engines.node, electronRange)]);
  });

  it('names the desktop app only where its Node is new enough', () => {
    expect(nextStep('v22.12.0', '>=20.19', '>= 22.12.0')).toBe(
      'skillsmith: installed and built — next: npm start (the desktop app) or npm run web (in your browser)',
    );
    expect(nextStep('v20.19.0', '>=20.19', '>= 22.12.0')).toBe(
      'skillsmith: installed and built — next: npm run web (in your browser) or npm test; the desktop app (npm start) needs Node >= 22.12.0, this is v20.19.0',
    );
    expect(nextStep('v18.20.0', '>=20.19', '>= 22.12.0')).toMatch(/older than this project needs \(>=20\.19\)/);
  });
});
