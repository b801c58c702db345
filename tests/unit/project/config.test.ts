import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatError } from '../../../shared/result';
import { parseProjectConfig } from '../../../shared/project/config';
import { readProjectConfig } from '../../../main/services/project/config';

describe('parseProjectConfig', () => {
  it('reads [project].targets and keeps only strings', () => {
    const r = parseProjectConfig('[project]\ntargets = ["claude-code", 3, "cursor"]\n');
    expect(r.ok && r.value.targets).toEqual(['claude-code', 'cursor']);
  });

  it('has no policy when the table is absent, and the reference defaults when present', () => {
    const none = parseProjectConfig('[project]\n');
    expect(none.ok && none.value.policy).toBeUndefined();
    const empty = parseProjectConfig('[policy]\n');
    expect(empty.ok && empty.value.policy).toEqual({
      allowSources: [],
      denyNetwork: false,
      denyWrite: false,
      denyRemoteExec: true,
      denyMcp: false,
      maxMcpTools: 100,
      allowMcpServers: [],
    });
  });

  it('reads wrong types as off, and only a literal false disables deny_remote_exec', () => {
    const r = parseProjectConfig(
      '[policy]\ndeny_network = "yes"\ndeny_write = true\ndeny_remote_exec = 0\nmax_budget = "9"\nmax_mcp_tools = 7\nallow_sources = ["gh:acme/*", 1]\n',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.policy).toMatchObject({
      denyNetwork: false,
      denyWrite: true,
      denyRemoteExec: true,
      maxMcpTools: 7,
      allowSources: ['gh:acme/*'],
    });
    expect(r.value.policy?.maxBudget).toBeUndefined();
    const off = parseProjectConfig('[policy]\ndeny_remote_exec = false\nmax_budget = 4000\n');
    expect(off.ok && off.value.policy).toMatchObject({ denyRemoteExec: false, maxBudget: 4000 });
  });

  it('names the line of malformed TOML', () => {
    const r = parseProjectConfig('[project]\ntargets = [\n', 'kitbash.toml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(formatError(r.error)).toMatch(/^kitbash\.toml:\d+:\d+: invalid TOML: /);
  });

  it('recognises merge-conflict markers before TOML does', () => {
    const r = parseProjectConfig(
      '[project]\n<<<<<<< HEAD\ntargets = ["cursor"]\n=======\ntargets = ["zed"]\n>>>>>>> other\n',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(formatError(r.error)).toBe(
      'kitbash.toml:2:1: contains an unresolved merge-conflict marker — resolve the conflict first',
    );
  });

  it('refuses prototype-reaching keys', () => {
    const r = parseProjectConfig('[policy.__proto__]\nx = 1\n');
    expect(r.ok).toBe(false);
  });
});

describe('readProjectConfig', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('treats a missing file as an empty configuration', () => {
    dir = mkdtempSync(join(tmpdir(), 'ss-config-'));
    const r = readProjectConfig(dir);
    expect(r.ok && r.value.targets).toBeUndefined();
    expect(r.ok && r.value.policy).toBeUndefined();
  });

  it('refuses non-UTF-8 with the byte offset', () => {
    dir = mkdtempSync(join(tmpdir(), 'ss-config-'));
    writeFileSync(join(dir, 'kitbash.toml'), Buffer.from([0x5b, 0x70, 0xff, 0x5d]));
    const r = readProjectConfig(dir);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(formatError(r.error)).toBe('kitbash.toml: not valid UTF-8 (invalid byte sequence at byte offset 2)');
  });
});
