/** `lint --schema` adds the json-schema check (SPEC §9.3, D17). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, cleanSkill, cleanup, cli, parseJson, tempProject, toml, writeFiles } from './helpers';

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempProject();
  cleanSkill(root, 'skills/clean', 'clean');
  writeFiles(root, {
    'skills/typo/SKILL.md': '# Typo\n\nBody.\n',
    'skills/typo/skill.toml': toml({ name: 'typo', extra: '[permissions]\nnetwrok = true\n' }),
    'skills/mcp-ok/SKILL.md': '# MCP\n\nBody.\n',
    'skills/mcp-ok/skill.toml': toml({
      name: 'mcp-ok',
      extra:
        '[mcp]\non_unsupported = "error"\n[mcp.servers.fs]\ncommand = "mcp-fs"\nargs = ["--root", "."]\ntools = ["read_file"]\n',
    }),
    'skills/bare-one/SKILL.md': 'Bare.\n',
  });
});
afterAll(cleanup);

const idsOf = (args: string[]) => parseJson(cli(root, 'lint', '--json', ...args))[0]!.checks;

describe('lint --schema', () => {
  it('without --schema there is no json-schema check', () => {
    expect(idsOf(['skills/typo']).map((c) => c.id)).not.toContain('json-schema');
  });

  it('fails on an unknown key in [permissions] (exit 1), after the schema warning', () => {
    const r = cli(root, 'lint', '--json', '--schema', 'skills/typo');
    expect(r.code).toBe(1);
    const checks = parseJson(r)[0]!.checks;
    const ids = checks.map((c) => c.id);
    expect(ids.indexOf('schema')).toBeLessThan(ids.indexOf('json-schema'));
    const js = checks.find((c) => c.id === 'json-schema')!;
    expect(js.status).toBe('fail');
    expect(js.detail).toContain('netwrok');
    expect(checks.find((c) => c.id === 'schema')!.status).toBe('warn');
  });

  it('passes a clean manifest (exit 0)', () => {
    const r = cli(root, 'lint', '--schema', '--json', 'skills/clean');
    expect(r.code).toBe(0);
    expect(parseJson(r)[0]!.checks.find((c) => c.id === 'json-schema')).toMatchObject({ status: 'pass' });
  });

  it('accepts an [mcp] declaration', () => {
    const r = cli(root, 'lint', '--schema', '--json', 'skills/mcp-ok');
    expect(r.code).toBe(0);
    expect(parseJson(r)[0]!.checks.find((c) => c.id === 'json-schema')?.status).toBe('pass');
  });

  it('adds nothing for a bare skill', () => {
    const r = cli(root, 'lint', '--schema', '--json', 'skills/bare-one');
    expect(r.code).toBe(0);
    expect(parseJson(r)[0]!.checks.map((c) => c.id)).not.toContain('json-schema');
  });

  it('shows in the human report too', () => {
    expect(cli(root, 'lint', '--schema', 'skills/typo').stdout).toMatch(/^ {4}✗ json-schema — .*netwrok/m);
  });
});
