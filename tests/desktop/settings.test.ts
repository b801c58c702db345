/**
 * The settings area over dispatch: kitbash.toml is read, previewed (diff + effect on the
 * installed skills) and written surgically under a version check. The renderer is
 * untrusted: garbage and forged payloads leave the file byte for byte as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsData, SettingsPreview } from '../../shared/ipc/channels/settings';
import { TARGET_IDS } from '../../shared/targets/registry';
import { exceptionToml } from '../../shared/policy/exceptions';
import { verdictFor } from '../../main/services/verdict/index';
import { useTestConfigDir } from '../support/exceptions';
import { openedSession, scratch, type Scratch } from './helpers';

let s: Scratch | undefined;
afterEach(() => s?.cleanup());

function setup() {
  s = scratch();
  const { raw, call } = openedSession(s.project, s.dataDir);
  return { file: join(s.project, 'kitbash.toml'), raw, call };
}

describe('settings.read / preview / apply', () => {
  it('reads the example: targets, policy values, known targets and a version', async () => {
    const { call } = setup();
    const d = await call<SettingsData>('settings.read', {});
    expect(d.error).toBeNull();
    expect(d.targets).toEqual(['claude-code', 'cursor', 'agentsmd']);
    expect(d.policy).toEqual({ max_budget: 2000, deny_remote_exec: true });
    expect(d.version).toMatch(/^[0-9a-f]{64}$/);
    expect(d.known.map((k) => k.id)).toEqual([...TARGET_IDS]);
  });

  it('previews the effect on installed skills without writing, then applies keeping comments', async () => {
    const { file, call } = setup();
    const before = readFileSync(file, 'utf8');
    const d = await call<SettingsData>('settings.read', {});
    const edits = [{ kind: 'policy', key: 'deny_remote_exec', value: false }];
    const p = await call<SettingsPreview>('settings.preview', { version: d.version, edits });
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.diff).toContain('-deny_remote_exec = true');
    expect(p.diff).toContain('+deny_remote_exec = false');
    // dependency-audit's scripts/audit.sh fails remote-exec; deny_remote_exec = false exempts it.
    expect(p.effects).toContainEqual(expect.objectContaining({ skill: 'dependency-audit', change: 'unblocked' }));
    expect(readFileSync(file, 'utf8')).toBe(before);

    const tight = await call<SettingsPreview>('settings.preview', {
      version: d.version,
      edits: [{ kind: 'policy', key: 'max_budget', value: 1 }],
    });
    expect(tight.ok && tight.effects.filter((e) => e.change === 'blocked').length).toBeGreaterThan(0);
    expect(
      tight.ok &&
        tight.effects.every((e) => e.change !== 'blocked' || e.reasons.some((r) => r.includes('exceeds max_budget 1'))),
    ).toBe(true);

    const r = await call<{ ok: boolean; version: string }>('settings.apply', { version: d.version, edits });
    expect(r.ok).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(before.replace('deny_remote_exec = true', 'deny_remote_exec = false'));
  });

  it('an exception that arrived with the project is shown unconfirmed and accepts nothing; confirming it over IPC makes it take effect', async () => {
    const { file, raw, call } = setup();
    const v = verdictFor(s!.project, 'dependency-audit');
    if (!v.ok) throw new Error(v.error.message);
    const b = v.value.verdict.blocking[0]!;
    const at = b.locations[0]!;
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}\n${exceptionToml({ skill: v.value.name, integrity: v.value.integrity, check: b.id, file: at.file, line: at.line, by: 'ana', reason: 'pinned mirror' })}`,
    );
    useTestConfigDir();
    const arrived = await call<SettingsData>('settings.read', {});
    const id = arrived.exceptions[0]!.id!;
    expect(arrived.exceptions).toEqual([
      {
        index: 0,
        entry: expect.objectContaining({ skill: 'dependency-audit', check: 'remote-exec', by: 'ana' }),
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        confirmed: false,
        problem: null,
      },
    ]);
    // Unconfirmed, it never unblocked the skill: removing it blocks nothing that was not blocked.
    const none = await call<SettingsPreview>('settings.preview', {
      version: arrived.version,
      edits: [{ kind: 'removeException', index: 0 }],
    });
    expect(none.ok && none.effects.map((e) => [e.skill, e.change])).toEqual([['dependency-audit', 'still-blocked']]);
    const forged = await raw('settings.confirmException', { id: 'not-an-id' });
    expect(forged.ok || forged.error.code).toBe('invalid-request');
    const stale = await call<{ ok: boolean; message?: string }>('settings.confirmException', {
      id: '0123456789abcdef',
    });
    expect(stale).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no \[\[policy\.exceptions\]\] entry with id 0123456789abcdef/),
    });
    expect(await call('settings.confirmException', { id })).toEqual({ ok: true });

    const d = await call<SettingsData>('settings.read', {});
    expect(d.exceptions).toEqual([expect.objectContaining({ index: 0, id, confirmed: true })]);
    const p = await call<SettingsPreview>('settings.preview', {
      version: d.version,
      edits: [{ kind: 'removeException', index: 0 }],
    });
    expect(p.ok && p.effects).toEqual([
      expect.objectContaining({
        skill: 'dependency-audit',
        change: 'blocked',
        reasons: [expect.stringMatching(/^dependency-audit: remote-exec/)],
      }),
    ]);
    expect(p.ok && p.diff).toContain('-[[policy.exceptions]]');
  });

  it('refuses to save over an external edit (version mismatch) and writes nothing', async () => {
    const { file, call } = setup();
    const d = await call<SettingsData>('settings.read', {});
    const external = `${readFileSync(file, 'utf8')}# edited elsewhere\n`;
    writeFileSync(file, external);
    const r = await call<{ ok: boolean; conflict: boolean; message: string }>('settings.apply', {
      version: d.version,
      edits: [{ kind: 'policy', key: 'max_budget', value: 9 }],
    });
    expect(r).toMatchObject({ ok: false, conflict: true });
    expect(r.message).toMatch(/^kitbash\.toml changed on disk/);
    expect(readFileSync(file, 'utf8')).toBe(external);
  });

  it('garbage and forged payloads are refused and kitbash.toml stays untouched', async () => {
    const { file, raw, call } = setup();
    const before = readFileSync(file);
    const { version } = await call<SettingsData>('settings.read', {});
    const bad: unknown[] = [
      null,
      'text',
      { version, edits: [] },
      { version, edits: [{ kind: 'text', text: '[policy]\n' }] },
      { version, edits: [{ kind: 'policy', key: 'max_budget', value: '5' }] },
      { version, edits: [{ kind: 'policy', key: 'max_budget', value: -3 }] },
      { version, edits: [{ kind: 'policy', key: 'deny_write', value: 1 }] },
      { version, edits: [{ kind: 'policy', key: '__proto__', value: true }] },
      { version, edits: [{ kind: 'policy', key: 'allow_sources', value: ['ok', 'bad\nline'] }] },
      { version, edits: [{ kind: 'targets', targets: ['claude-code', '../../etc'] }] },
      { version, edits: [{ kind: 'removeException', index: -1 }] },
      { version, edits: [{ kind: 'policy', key: 'deny_write', value: true, text: 'x' }] },
      { version: 'not-a-hash', edits: [{ kind: 'policy', key: 'deny_write', value: true }] },
      { version, edits: [{ kind: 'policy', key: 'deny_write', value: true }], path: '/etc/passwd' },
    ];
    for (const payload of bad) {
      const env = await raw('settings.apply', payload);
      expect(env.ok, JSON.stringify(payload)).toBe(false);
      expect(!env.ok && env.error.code).toBe('invalid-request');
    }
    // Well-formed but naming a table the file does not have: a refusal value, nothing written.
    const none = await call<{ ok: boolean; message: string }>('settings.apply', {
      version,
      edits: [{ kind: 'removeException', index: 0 }],
    });
    expect(none).toMatchObject({ ok: false });
    expect(none.message).toMatch(/^kitbash\.toml has no \[\[policy\.exceptions\]\]/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a kitbash.toml that does not parse is reported in one line and not edited', async () => {
    const { file, call } = setup();
    writeFileSync(file, '[policy\nmax_budget = 1\n');
    const d = await call<SettingsData>('settings.read', {});
    expect(d.error).toMatch(/^kitbash\.toml/);
    expect(d.error).not.toContain('\n');
    const r = await call<{ ok: boolean; message: string }>('settings.apply', {
      version: d.version,
      edits: [{ kind: 'policy', key: 'max_budget', value: 2 }],
    });
    expect(r.ok).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('[policy\nmax_budget = 1\n');
  });
});
