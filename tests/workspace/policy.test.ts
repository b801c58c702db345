import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { globMatches, manifestViolations, sourceViolations } from '../../shared/policy/policy';
import { parseProjectConfig } from '../../shared/project/config';
import { cleanupTemps, cli, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

describe('policy globs', () => {
  it('* matches anything including /, everything else is literal and case-sensitive', () => {
    expect(globMatches('gh:acme/*', 'gh:acme/tools/skills/x@v1')).toBe(true);
    expect(globMatches('gh:acme/*', 'gh:Acme/tools')).toBe(false);
    expect(globMatches('file:/a.b/*', 'file:/aXb/c')).toBe(false);
    expect(globMatches('gh:o/r', 'gh:o/r2')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
  });

  it('names the raw and the canonical source when they differ', () => {
    const cfg = parseProjectConfig('[policy]\nallow_sources = ["gh:acme/*"]\n');
    if (!cfg.ok || !cfg.value.policy) throw new Error('config');
    expect(sourceViolations(cfg.value.policy, 'other/repo', 'gh:other/repo')).toEqual([
      'source "other/repo" (gh:other/repo) is not in allow_sources (gh:acme/*)',
    ]);
    expect(sourceViolations(cfg.value.policy, 'gh:acme/x', 'gh:acme/x')).toEqual([]);
  });

  it('manifest rules in the reference order, MCP servers by command or url', () => {
    const cfg = parseProjectConfig(
      '[policy]\ndeny_network = true\ndeny_write = true\nmax_budget = 100\nallow_mcp_servers = ["https://mcp.acme.com/*"]\n',
    );
    if (!cfg.ok || !cfg.value.policy) throw new Error('config');
    const m = {
      skill: { name: 'x', version: '1.0.0', description: 'd', authors: [] },
      context: { budget: 200, standing: 10, disclosure: 'lazy' as const },
      triggers: { commands: [], auto: [], events: [] },
      permissions: { tools: [], network: true, write: true },
      artifacts: { produces: [], consumes: [] },
      targets: { requires: [], mode: 'skill' as const },
      lore: { reads: [], writes: [] },
      dependencies: {},
      mcp: {
        onUnsupported: 'warn' as const,
        servers: [
          { name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'srv'], env: {}, headers: {}, tools: ['a'] },
          {
            name: 'web',
            transport: 'streamable-http',
            url: 'https://mcp.acme.com/x',
            args: [],
            env: {},
            headers: {},
            tools: ['b'],
          },
        ],
      },
    };
    expect(manifestViolations(cfg.value.policy, m)).toEqual([
      'x declares network permission and deny_network = true',
      'x declares write permission and deny_write = true',
      'x budget 200 exceeds max_budget 100',
      'x MCP server "fs" (npx -y srv) is not in allow_mcp_servers (https://mcp.acme.com/*)',
    ]);
  });
});

describe("security regressions (the reference's A7 and A9)", () => {
  it('A7: a ../ path out of an allowed folder is matched on its canonical form and blocked', async () => {
    const p = temp();
    const approved = join(p, 'approved');
    write(p, {
      ...skillFiles('approved/welcome', 'welcome'),
      ...skillFiles('untrusted/sneaky', 'sneaky'),
      'kitbash.toml': `[policy]\nallow_sources = ["file:${approved}/*"]\n`,
    });
    const sneaky = await cli(p, 'install', `file:${approved}/../untrusted/sneaky`, '--yes', '--no-compile');
    expect(sneaky.code).toBe(1);
    expect(sneaky.stderr).toContain(`(file:${join(p, 'untrusted', 'sneaky')}) is not in allow_sources`);
    expect((await cli(p, 'install', `file:${join(p, 'untrusted', 'sneaky')}`, '--yes', '--no-compile')).code).toBe(1);
    expect((await cli(p, 'install', `file:${approved}/welcome`, '--yes', '--no-compile')).code).toBe(0);
  });

  it('A9: a skill folder that is itself a git work tree installs, without its .git', async () => {
    const p = temp();
    write(p, {
      ...skillFiles('v/repo-root', 'rooted'),
      'v/repo-root/.git/HEAD': 'ref: refs/heads/main\n',
      'v/repo-root/.git/config': '[core]\n',
    });
    const r = await cli(p, 'install', 'file:./v/repo-root', '--yes', '--no-compile');
    expect(r.code).toBe(0);
    expect(existsSync(join(p, '.kitbash', 'skills', 'rooted', 'SKILL.md'))).toBe(true);
    expect(existsSync(join(p, '.kitbash', 'skills', 'rooted', '.git'))).toBe(false);
    expect((await cli(p, 'doctor')).code).toBe(0);
  });
});
