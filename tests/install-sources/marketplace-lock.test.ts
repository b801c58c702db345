/**
 * The pure half of marketplace sources: the manifest schemas (Claude Code's and Codex's
 * plugin sources), the source string each remote plugin's skill is pinned to, the other
 * powers a plugin holds, and the plugin's identity through a lock write and read.
 */
import { describe, expect, it } from 'vitest';
import { parseLock, serializeLock, type LockEntry } from '../../shared/lock/lockfile';
import {
  otherPowers,
  otherPowersLine,
  parseMarketplace,
  pluginSourceString,
  readPluginManifests,
} from '../../shared/lock/marketplace';
import { parsedFormOf } from '../../main/services/lock';
import type { SourceView } from '../../shared/lock/discover';

const SHA = 'c'.repeat(40);

function view(files: Record<string, string>): SourceView {
  return {
    read: (p) => files[p],
    list: (dir) => {
      const prefix = dir === '' ? '' : `${dir}/`;
      const names = new Map<string, 'dir' | 'file'>();
      for (const f of Object.keys(files))
        if (f.startsWith(prefix)) {
          const rest = f.slice(prefix.length).split('/');
          names.set(rest[0]!, rest.length > 1 ? 'dir' : 'file');
        }
      return [...names].map(([name, kind]) => ({ name, kind }));
    },
  } as SourceView;
}

describe('marketplace.json', () => {
  it("reads each plugin source kind of Claude Code's and Codex's schemas", () => {
    const m = parseMarketplace(
      JSON.stringify({
        name: 'acme',
        metadata: { pluginRoot: './plugins' },
        plugins: [
          { name: 'bare', source: 'formatter' },
          { name: 'dotted', source: './tools/x' },
          { name: 'codex-local', source: { source: 'local', path: './p/y' } },
          { name: 'gh', source: { source: 'github', repo: 'acme/gh-plugin', ref: 'v2', sha: SHA } },
          { name: 'url', source: { source: 'url', url: 'https://git.example/a.git', ref: 'main' } },
          { name: 'sub', source: { source: 'git-subdir', url: 'https://git.example/mono.git', path: 'plugins/s' } },
          { name: 'npm', source: { source: 'npm', package: 'x' } },
        ],
      }),
      'm.json',
      'claude',
    );
    if (!m.ok) throw new Error(m.error.message);
    expect(m.value.plugins.map((p) => p.location)).toEqual([
      { kind: 'path', path: 'plugins/formatter' },
      { kind: 'path', path: 'tools/x' },
      { kind: 'path', path: 'p/y' },
      { kind: 'github', owner: 'acme', repo: 'gh-plugin', ref: 'v2', sha: SHA },
      { kind: 'git', url: 'https://git.example/a.git', ref: 'main' },
      { kind: 'git', url: 'https://git.example/mono.git', subpath: 'plugins/s' },
      { kind: 'unsupported', why: 'its source is "npm", which Skillsmith does not fetch — install it in the agent' },
    ]);
    const [gh, url, sub] = m.value.plugins.slice(3, 6).map((p) => p.location) as Parameters<
      typeof pluginSourceString
    >[0][];
    // The sha pins over the ref; the skill's folder extends the plugin's subpath.
    expect(pluginSourceString(gh!, 'skills/a')).toBe(`gh:acme/gh-plugin/skills/a@${SHA}`);
    expect(pluginSourceString(url!, 'skills/a')).toBe('https://git.example/a.git#main:skills/a');
    expect(pluginSourceString(sub!, 'skills/a')).toBe('https://git.example/mono.git#:plugins/s/skills/a');
  });

  it('refuses, with the file and the plugin named: a leaving path, an absolute one, a ref that is an option, a twice-listed name', () => {
    const refuse = (plugins: unknown[]) => {
      const r = parseMarketplace(JSON.stringify({ name: 'm', plugins }), 'm.json', 'codex');
      return r.ok ? 'parsed' : r.error.message;
    };
    expect(refuse([{ name: 'a', source: '../up' }])).toBe(
      'm.json: plugin "a": source "../up" leaves the marketplace\'s folder — only paths inside it are read',
    );
    expect(refuse([{ name: 'a', source: { source: 'local', path: '/etc' } }])).toContain('leaves the marketplace');
    expect(refuse([{ name: 'a', source: { source: 'url', url: 'https://h/a.git', ref: '--upload-pack=x' } }])).toBe(
      'm.json: plugin "a": "--upload-pack=x" is not a valid branch, tag, or commit name',
    );
    expect(refuse([{ name: 'a', source: { source: 'git-subdir', url: 'https://h/a.git', path: '../x' } }])).toContain(
      'path "../x" is not a folder inside the plugin\'s repository',
    );
    expect(
      refuse([
        { name: 'a', source: 'x' },
        { name: 'a', source: 'y' },
      ]),
    ).toBe('m.json: plugin "a" is listed twice');
    expect(refuse([{ name: 'a', source: 'x', skills: ['../../y'] }])).toContain('skills path "../../y" leaves');
  });
});

describe("a plugin's other powers", () => {
  it('counts hooks, MCP and LSP servers, commands and agents from the files and the manifest', () => {
    const v = view({
      '.claude-plugin/plugin.json': JSON.stringify({
        name: 'p',
        version: '1.0.0',
        hooks: {
          PostToolUse: [
            {
              hooks: [
                { type: 'command', command: 'a' },
                { type: 'command', command: 'b' },
              ],
            },
          ],
        },
        lspServers: { go: { command: 'gopls' } },
      }),
      '.mcp.json': JSON.stringify({ mcpServers: { one: { command: 'x' } } }),
      'commands/a.md': '',
      'commands/sub/b.md': '',
      'agents/r.md': '',
      'skills/s/SKILL.md': '',
    });
    const powers = otherPowers(v, readPluginManifests(v));
    expect(powers).toEqual({
      hooks: 2,
      mcpServers: ['one'],
      lspServers: ['go'],
      commands: 2,
      agents: 1,
      outputStyles: 0,
      apps: 0,
    });
    expect(otherPowersLine('p', powers)).toBe(
      'not installed: 2 hooks, 1 MCP server (one), 1 LSP server (go), 2 commands, 1 agent of plugin p — Skillsmith installs its skills only; install the plugin in the agent to get them',
    );
  });
});

describe("the plugin's identity in the lock", () => {
  it('round-trips through a lock write and read, and the project index agrees with the parse', () => {
    const entry: LockEntry = {
      name: 'tips',
      version: '1.0.0',
      source: 'https://git.example/p.git#abc:skills/tips',
      integrity: `sha256-${'0'.repeat(64)}`,
      plugin: { name: 'helper', version: '2.0.0', marketplace: 'acme', marketplaceSource: 'https://x/m.json' },
    };
    const text = serializeLock([entry]);
    expect(text).toContain(
      'plugin = "helper"\nplugin_version = "2.0.0"\nmarketplace = "acme"\nmarketplace_source = "https://x/m.json"\n',
    );
    const back = parseLock(text);
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value).toEqual([entry]);
    expect(parsedFormOf([entry])).toEqual(back.value);
    // Without a plugin name the other keys are not a plugin.
    const orphan = parseLock(text.replace('plugin = "helper"\n', ''));
    expect(orphan.ok && orphan.value[0]!.plugin).toBeUndefined();
  });
});
