import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exceptionToml } from '../../../shared/policy/exceptions';
import { parseProjectConfig } from '../../../shared/project/config';
import { editProjectConfig } from '../../../shared/project/edit';

const EXAMPLE = readFileSync(new URL('../../../examples/workspace/kitbash.toml', import.meta.url), 'utf8');

const entry = (skill: string) =>
  exceptionToml({
    skill,
    integrity: 'sha256-abc',
    check: 'remote-exec',
    file: 'scripts/a.sh',
    line: 3,
    by: 'ana',
    reason: 'reviewed',
  });

function ok(text: string, edits: Parameters<typeof editProjectConfig>[1]): string {
  const r = editProjectConfig(text, edits);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('editProjectConfig', () => {
  it('changes one value in place and keeps every other byte (comments, blank lines, order)', () => {
    const out = ok(EXAMPLE, [{ kind: 'policy', key: 'max_budget', value: 5000 }]);
    expect(out).toBe(EXAMPLE.replace('max_budget = 2000', 'max_budget = 5000'));
    expect(
      parseProjectConfig(out).ok &&
        (parseProjectConfig(out) as { value: { policy?: { maxBudget?: number } } }).value.policy?.maxBudget,
    ).toBe(5000);
  });

  it('keeps a trailing comment on the changed line and ignores # inside strings', () => {
    const text = '[policy]\nallow_sources = ["github:a/#b"] # team list\ndeny_write = true\n';
    expect(ok(text, [{ kind: 'policy', key: 'allow_sources', value: ['github:x/*'] }])).toBe(
      '[policy]\nallow_sources = ["github:x/*"] # team list\ndeny_write = true\n',
    );
  });

  it('keeps the spacing before a trailing comment', () => {
    expect(ok('[policy]\nmax_budget = 10      # aligned\n', [{ kind: 'policy', key: 'max_budget', value: 7 }])).toBe(
      '[policy]\nmax_budget = 7      # aligned\n',
    );
  });

  it('adds a missing key after the last key of its table, before trailing comments', () => {
    const out = ok(EXAMPLE, [{ kind: 'policy', key: 'deny_network', value: true }]);
    expect(out).toBe(EXAMPLE.replace('deny_remote_exec = true\n', 'deny_remote_exec = true\ndeny_network = true\n'));
  });

  it('removes a key, including a value that spans lines', () => {
    const text = '# head\n[policy]\nallow_sources = [\n  "a", # first\n  "b",\n]\ndeny_write = true\n';
    expect(ok(text, [{ kind: 'policy', key: 'allow_sources', value: null }])).toBe(
      '# head\n[policy]\ndeny_write = true\n',
    );
  });

  it('creates a missing table at the end, or before the first exception table', () => {
    expect(ok('# only a comment\n', [{ kind: 'policy', key: 'deny_write', value: true }])).toBe(
      '# only a comment\n\n[policy]\ndeny_write = true\n',
    );
    expect(ok('', [{ kind: 'targets', targets: ['cursor'] }])).toBe('[project]\ntargets = ["cursor"]\n');
    const withEx = `# top\n${entry('a')}`;
    expect(ok(withEx, [{ kind: 'policy', key: 'max_budget', value: 10 }])).toBe(
      `# top\n[policy]\nmax_budget = 10\n\n${entry('a')}`,
    );
  });

  it('sets the project targets list', () => {
    const out = ok(EXAMPLE, [{ kind: 'targets', targets: ['codex'] }]);
    expect(out).toBe(EXAMPLE.replace('targets = ["claude-code", "cursor", "agentsmd"]', 'targets = ["codex"]'));
  });

  it('removes exactly the named exception table and leaves the others', () => {
    const text = `[policy]\nmax_budget = 1\n\n${entry('a')}\n# second\n${entry('b')}\n${entry('c')}`;
    const out = ok(text, [{ kind: 'removeException', index: 1 }]);
    expect(out).toBe(`[policy]\nmax_budget = 1\n\n${entry('a')}\n# second\n${entry('c')}`);
    const parsed = parseProjectConfig(out);
    expect(
      parsed.ok && (parsed.value.raw.policy as { exceptions: { skill: string }[] }).exceptions.map((e) => e.skill),
    ).toEqual(['a', 'c']);
    expect(editProjectConfig(text, [{ kind: 'removeException', index: 3 }])).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('removes the last exception table', () => {
    const text = `[policy]\nmax_budget = 1\n\n${entry('a')}`;
    expect(ok(text, [{ kind: 'removeException', index: 0 }])).toBe('[policy]\nmax_budget = 1\n\n');
    // Without a [policy] header of its own, the table goes with its last exception.
    expect(ok(`# x\n${entry('a')}`, [{ kind: 'removeException', index: 0 }])).toBe('# x\n');
  });

  it('keeps CRLF line endings', () => {
    const text = '[policy]\r\ndeny_write = true\r\n';
    expect(ok(text, [{ kind: 'policy', key: 'deny_mcp', value: true }])).toBe(
      '[policy]\r\ndeny_write = true\r\ndeny_mcp = true\r\n',
    );
  });

  it('round trip: the result re-parses to the intended config', () => {
    const out = ok(EXAMPLE, [
      { kind: 'targets', targets: ['claude-code'] },
      { kind: 'policy', key: 'max_budget', value: null },
      { kind: 'policy', key: 'allow_mcp_servers', value: ['npx *'] },
      { kind: 'policy', key: 'deny_remote_exec', value: false },
    ]);
    const p = parseProjectConfig(out);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.targets).toEqual(['claude-code']);
    expect(p.value.policy).toMatchObject({ allowMcpServers: ['npx *'], denyRemoteExec: false });
    expect(p.value.policy?.maxBudget).toBeUndefined();
    expect(out).toContain('# Team rules every installed skill must satisfy');
    expect(out).toContain('[evals.runners.stand-in]\ncommand = ["./tools/stand-in-agent.mjs"');
  });

  it('refuses malformed input with one line naming kitbash.toml', () => {
    const r = editProjectConfig('[policy\nmax_budget = 1\n', [{ kind: 'policy', key: 'max_budget', value: 2 }]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid-input');
    expect(r.error.message).toMatch(/^kitbash\.toml /);
    expect(r.error.message).not.toContain('\n');
  });

  it('refuses a bad value and a layout it cannot edit surgically', () => {
    expect(editProjectConfig('', [{ kind: 'policy', key: 'max_budget', value: -1 }])).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' },
    });
    expect(
      editProjectConfig('', [{ kind: 'policy', key: 'deny_write', value: 3 as unknown as boolean }]),
    ).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    // An inline [policy] table cannot take a new key line; the re-parse check refuses it.
    const r = editProjectConfig('policy = { deny_write = true }\n', [{ kind: 'policy', key: 'max_budget', value: 5 }]);
    expect(r).toMatchObject({ ok: false, error: { code: 'unsupported' } });
  });
});
