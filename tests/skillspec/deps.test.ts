/** `spec deps`: PATH lookup, file and env checks, deferred kinds, the --command subset. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDependencies, HARNESS_REQUIRED_MESSAGE } from '../../shared/skillspec/deps';
import { nodeDepsHost } from '../../main/services/skillspec/deps';
import { main } from '../../main/cli/main';
import { doc, errorOf, load } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'skillspec-deps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'bin'));
writeFileSync(join(dir, 'bin', 'hastool'), '#!/bin/sh\n');
chmodSync(join(dir, 'bin', 'hastool'), 0o755);
writeFileSync(join(dir, 'bin', 'notexec'), 'x');
chmodSync(join(dir, 'bin', 'notexec'), 0o644);
writeFileSync(join(dir, 'deps.toml'), '');
writeFileSync(join(dir, 'data.txt'), 'x');

const SPEC = doc(`dependencies:
  hastool: {kind: cli, check: {command: "hastool --version"}, permission: {required: true}}
  nothere: {kind: cli, command: no-such-tool-xyz}
  notexec: {kind: cli}
  ledger: {kind: file, path: deps.toml}
  data: {kind: file, check: {path: data.txt}, provision: {options: [{id: fetch, label: Fetch}]}}
  gone: {kind: file, path: missing.txt}
  token: {kind: env, env: SKILLSPEC_TEST_TOKEN}
  unset: {kind: env}
  svc: {kind: service}
commands:
  run: {template: x, requires: {dependencies: [token, hastool, token]}}
`);

const host = nodeDepsHost(join(dir, 'skill.spec.yml'), dir, { PATH: join(dir, 'bin'), SKILLSPEC_TEST_TOKEN: '' });

describe('deps check', () => {
  it('checks every dependency in id order', () => {
    const r = checkDependencies(load(SPEC), host);
    expect(r.ok).toBe(false);
    expect(r.dependencies.map((d) => [d.id, d.status, d.check, d.message])).toEqual([
      ['data', 'present', 'file_exists', 'data.txt exists'],
      ['gone', 'missing', 'file_exists', 'missing.txt does not exist'],
      ['hastool', 'present', 'path_lookup', 'hastool found on PATH'],
      ['ledger', 'missing', 'file_exists', 'deps.toml exists but is empty'],
      ['notexec', 'missing', 'path_lookup', 'notexec not found on PATH'],
      ['nothere', 'missing', 'path_lookup', 'no-such-tool-xyz not found on PATH'],
      ['svc', 'deferred', 'harness_required', HARNESS_REQUIRED_MESSAGE],
      ['token', 'present', 'env_present', 'SKILLSPEC_TEST_TOKEN is set'],
      ['unset', 'missing', 'env_present', 'unset is not set'],
    ]);
    expect(r.dependencies.find((d) => d.id === 'hastool')).toMatchObject({
      permission_required: true,
      provisionable: false,
    });
    expect(r.dependencies.find((d) => d.id === 'data')).toMatchObject({
      permission_required: false,
      provisionable: true,
    });
  });

  it('checks only what a command requires, and names an unknown command', () => {
    const r = checkDependencies(load(SPEC), host, 'run');
    expect(r).toEqual({
      ok: true,
      dependencies: [
        expect.objectContaining({ id: 'hastool', status: 'present' }),
        expect.objectContaining({ id: 'token', status: 'present' }),
      ],
    });
    expect(errorOf(() => checkDependencies(load(SPEC), host, 'nope'))).toBe(
      'unknown reference "nope" in deps.check.command',
    );
  });

  it('runs as skillsmith spec deps, exiting 1 when something is missing', async () => {
    writeFileSync(
      join(dir, 'skill.spec.yml'),
      doc('dependencies:\n  sh: {kind: cli, command: sh}\n  s: {kind: service}\n'),
    );
    let out = '';
    const code = await main(['spec', 'deps', 'skill.spec.yml'], { cwd: dir, out: (t) => (out += t), err: () => {} });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      ok: true,
      dependencies: [
        { id: 's', status: 'deferred' },
        { id: 'sh', status: 'present', message: 'sh found on PATH' },
      ],
    });
    writeFileSync(join(dir, 'skill.spec.yml'), doc('dependencies:\n  x: {kind: cli, command: no-such-tool-xyz}\n'));
    expect(await main(['spec', 'deps', 'skill.spec.yml'], { cwd: dir, out: () => {}, err: () => {} })).toBe(1);
  });
});
