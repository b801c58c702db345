/**
 * Claude Code and Codex plugin marketplaces as install sources, end to end with the built
 * CLI against 127.0.0.1: a marketplace repository cloned over git's HTTP protocol, plugins
 * in other loopback repositories, and a Codex marketplace.json read from an http URL.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLock } from '../../shared/lock/lockfile';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, gitAvailable, temp, write } from '../workspace/helpers';
import { loopback, project, runBuilt, skillMd, type Loopback } from './marketplace-helpers';

const hasGit = requireOrSkip('git', gitAvailable());

let net: Loopback;
let claudeMarket: string;
let codexUrl: string;
let codexPlugin: { push(files: Record<string, string>): string };
let docsCommit: string;

const HOOKS = JSON.stringify({
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }],
    SessionStart: [{ hooks: [{ type: 'command', command: 'echo start' }] }],
  },
});

beforeAll(async () => {
  if (!hasGit) return;
  net = await loopback();
  const docs = net.repo('docs-plugin', {
    '.claude-plugin/plugin.json': JSON.stringify({
      name: 'remote-docs',
      version: '0.3.0',
      description: 'Docs helpers',
    }),
    'skills/doc-writer/SKILL.md': skillMd('doc-writer'),
    'skills/doc-reader/SKILL.md': skillMd('doc-reader'),
  });
  docsCommit = docs.commit;
  net.repo('mono', {
    'README.md': 'a monorepo\n',
    'plugins/sub/.claude-plugin/plugin.json': JSON.stringify({ name: 'subdir-plugin', version: '1.0.0' }),
    'plugins/sub/skills/sub-skill/SKILL.md': skillMd('sub-skill'),
    'other/SKILL.md': skillMd('not-in-plugin'),
  });
  claudeMarket = net.repo('claude-market', {
    '.claude-plugin/marketplace.json': JSON.stringify({
      name: 'acme-market',
      owner: { name: 'Acme' },
      plugins: [
        { name: 'local-tools', source: './plugins/local-tools', description: 'Tools kept in the marketplace' },
        { name: 'remote-docs', source: { source: 'url', url: `${net.base}/docs-plugin.git`, sha: docs.commit } },
        { name: 'subdir-plugin', source: { source: 'git-subdir', url: `${net.base}/mono.git`, path: 'plugins/sub' } },
        { name: 'npm-thing', source: { source: 'npm', package: '@acme/thing' } },
      ],
    }),
    'plugins/local-tools/.claude-plugin/plugin.json': JSON.stringify({
      name: 'local-tools',
      version: '1.2.0',
      description: 'Linting and formatting',
    }),
    'plugins/local-tools/skills/lint-helper/SKILL.md': skillMd('lint-helper'),
    'plugins/local-tools/hooks/hooks.json': HOOKS,
    'plugins/local-tools/.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'db-server' } } }),
    'plugins/local-tools/commands/fmt.md': '# fmt\n',
    'plugins/local-tools/agents/reviewer.md': '# reviewer\n',
  }).url;
  const codex = net.repo('codex-plugin', {
    '.codex-plugin/plugin.json': JSON.stringify({
      name: 'codex-helper',
      version: '2.0.0',
      description: 'Shell help for Codex',
      skills: './skills/',
      mcpServers: './.mcp.json',
    }),
    '.mcp.json': JSON.stringify({ mcpServers: { search: { command: 's' }, files: { command: 'f' } } }),
    'skills/shell-tips/SKILL.md': skillMd('shell-tips'),
  });
  codexPlugin = codex;
  codexUrl = `${net.base}/codex/.agents/plugins/marketplace.json`;
  net.route(
    '/codex/.agents/plugins/marketplace.json',
    JSON.stringify({
      name: 'codex-market',
      plugins: [{ name: 'codex-helper', source: { source: 'url', url: codex.url } }],
    }),
  );
});

afterAll(async () => {
  await net?.close();
  cleanupTemps();
});

const lockOf = (p: string) => {
  const l = parseLock(readFileSync(join(p, 'kitbash.lock'), 'utf8'));
  if (!l.ok) throw new Error(l.error.message);
  return l.value;
};

/** Every file under `dir`, '/'-separated and sorted (for "nothing else reached the agent folder"). */
function files(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

describe.skipIf(!hasGit)('a Claude Code marketplace repository over git HTTP', () => {
  it('--list groups the skills by plugin, with what else each plugin holds', async () => {
    const r = await runBuilt(project(), ['install', claudeMarket, '--list']);
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toMatch(/^plugin local-tools@1\.2\.0 — Linting and formatting\n/m);
    expect(out).toContain(
      '  also holds 2 hooks, 1 MCP server (db), 1 command, 1 agent — not installed by Skillsmith\n',
    );
    expect(out).toMatch(
      /^plugin remote-docs@0\.3\.0 — Docs helpers\n {4}doc-reader +skills\/doc-reader\/ +Use when working on doc-reader\.\n {4}doc-writer /m,
    );
    expect(out).toMatch(/^plugin subdir-plugin@1\.0\.0\n {4}sub-skill /m);
    expect(out).toContain('plugin npm-thing\n  (cannot be listed: its source is "npm"');
    // The monorepo's folder outside the plugin is not offered: only the plugin's folder is read.
    expect(out).not.toContain('not-in-plugin');
    // The order of the skills follows the plugins.
    expect(out.indexOf('lint-helper')).toBeLessThan(out.indexOf('doc-reader'));
  });

  it('installs picked skills only, records each plugin in the lock, and names the other powers in the review', async () => {
    const p = project();
    const r = await runBuilt(p, ['install', claudeMarket, '--skill', 'lint-helper', '--skill', 'doc-writer', '--yes']);
    expect(r.stderr).not.toMatch(/✗/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  plugin: local-tools@1.2.0 from marketplace acme-market');
    expect(r.stdout).toContain(
      '  not installed: 2 hooks, 1 MCP server (db), 1 command, 1 agent of plugin local-tools — Skillsmith installs its skills only; install the plugin in the agent to get them\n',
    );
    expect(r.stdout).toContain('  plugin remote-docs holds nothing but skills\n');
    expect(r.stdout).toContain('installed 2 skills: lint-helper, doc-writer');
    const lock = lockOf(p);
    const lint = lock.find((e) => e.name === 'lint-helper')!;
    const doc = lock.find((e) => e.name === 'doc-writer')!;
    expect(lint.plugin).toEqual({
      name: 'local-tools',
      version: '1.2.0',
      marketplace: 'acme-market',
      marketplaceSource: claudeMarket,
    });
    expect(doc.plugin).toEqual({
      name: 'remote-docs',
      version: '0.3.0',
      marketplace: 'acme-market',
      marketplaceSource: claudeMarket,
    });
    // The skill's own source is what update refetches: the plugin's repository at the pinned sha.
    expect(doc.source).toBe(`${net.base}/docs-plugin.git#${docsCommit}:skills/doc-writer`);
    expect(doc.commit).toBe(docsCommit);
    expect(lint.source).toBe(`${claudeMarket}:plugins/local-tools/skills/lint-helper`.replace('.git:', '.git#:'));
    // Only the two approved skills reach the project and the agent folder: no hook, no MCP server, no command.
    expect(readdirSync(join(p, '.kitbash', 'skills')).sort()).toEqual(['doc-writer', 'lint-helper']);
    expect(files(join(p, '.claude'))).toEqual(['.keep', 'skills/doc-writer/SKILL.md', 'skills/lint-helper/SKILL.md']);
    expect(existsSync(join(p, '.mcp.json'))).toBe(false);
  });

  it("the plugin's identity stays out of the content hash: the same folder installed directly hashes the same", async () => {
    const viaMarket = project();
    expect(
      (await runBuilt(viaMarket, ['install', claudeMarket, '--skill', 'doc-writer', '--yes', '--no-compile'])).code,
    ).toBe(0);
    const direct = project();
    const src = `${net.base}/docs-plugin.git#${docsCommit}:skills/doc-writer`;
    expect((await runBuilt(direct, ['install', src, '--yes', '--no-compile'])).code).toBe(0);
    const [a] = lockOf(viaMarket);
    const [b] = lockOf(direct);
    expect(a!.plugin?.name).toBe('remote-docs');
    expect(b!.plugin).toBeUndefined();
    expect(a!.integrity).toBe(b!.integrity);
  });
});

describe.skipIf(!hasGit)('a Codex marketplace.json over an http URL', () => {
  it('installs one skill with its plugin recorded; --json names the MCP servers not installed; update keeps the plugin', async () => {
    const p = project();
    const r = await runBuilt(p, ['install', codexUrl, '--skill', 'shell-tips', '--yes', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      reviews: { plugin?: { provenance: { name: string }; notInstalled: string; powers: { mcpServers: string[] } } }[];
      installed: string[];
    };
    expect(doc.installed).toEqual(['shell-tips']);
    expect(doc.reviews[0]!.plugin!.provenance.name).toBe('codex-helper');
    expect(doc.reviews[0]!.plugin!.powers.mcpServers).toEqual(['search', 'files']);
    expect(doc.reviews[0]!.plugin!.notInstalled).toMatch(
      /^not installed: 2 MCP servers \(search, files\) of plugin codex-helper/,
    );
    const pinned = lockOf(p)[0]!;
    expect(pinned.plugin).toEqual({
      name: 'codex-helper',
      version: '2.0.0',
      marketplace: 'codex-market',
      marketplaceSource: codexUrl,
    });
    expect(readFileSync(join(p, 'kitbash.lock'), 'utf8')).toContain(
      `plugin = "codex-helper"\nplugin_version = "2.0.0"\nmarketplace = "codex-market"\nmarketplace_source = "${codexUrl}"\n`,
    );
    expect(files(join(p, '.claude'))).toEqual(['.keep', 'skills/shell-tips/SKILL.md']);
    // Upstream moves; the update refetches the skill's own source and keeps the plugin's identity.
    codexPlugin.push({ 'skills/shell-tips/SKILL.md': skillMd('shell-tips', 'Newer advice for the shell.') });
    const u = await runBuilt(p, ['update', 'shell-tips', '--yes']);
    expect(u.code).toBe(0);
    const after = lockOf(p)[0]!;
    expect(after.integrity).not.toBe(pinned.integrity);
    expect(after.plugin).toEqual(pinned.plugin);
    expect(readFileSync(join(p, '.kitbash', 'skills', 'shell-tips', 'SKILL.md'), 'utf8')).toContain('Newer advice');
  });
});

describe.skipIf(!hasGit)('the other forms of a marketplace', () => {
  it('a Codex marketplace repository over git HTTP, its plugin a folder of it', async () => {
    const market = net.repo('codex-market-repo', {
      '.agents/plugins/marketplace.json': JSON.stringify({
        name: 'codex-shop',
        plugins: [{ name: 'tools', source: { source: 'local', path: './plugins/tools' } }],
      }),
      'plugins/tools/.codex-plugin/plugin.json': JSON.stringify({ name: 'tools', version: '0.9.0' }),
      'plugins/tools/.app.json': JSON.stringify({ apps: { tracker: { id: 'x' } } }),
      'plugins/tools/skills/fmt/SKILL.md': skillMd('fmt'),
      'plugins/tools/skills/lint/SKILL.md': skillMd('lint'),
    });
    const p = project();
    const r = await runBuilt(p, ['install', market.url, '--skill', 'fmt', '--yes', '--no-compile']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  not installed: 1 app of plugin tools');
    expect(lockOf(p).map((e) => [e.name, e.plugin])).toEqual([
      ['fmt', { name: 'tools', version: '0.9.0', marketplace: 'codex-shop', marketplaceSource: market.url }],
    ]);
    expect(readdirSync(join(p, '.kitbash', 'skills'))).toEqual(['fmt']);
  });

  it('a Claude Code marketplace.json named by its path: its plugin paths resolve from the folder holding .claude-plugin/', async () => {
    const dir = temp();
    write(dir, {
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'on-disk',
        metadata: { pluginRoot: './plugins' },
        plugins: [{ name: 'notes', source: 'notes' }],
      }),
      'plugins/notes/skills/jot/SKILL.md': skillMd('jot'),
    });
    const file = join(dir, '.claude-plugin', 'marketplace.json');
    const p = project();
    const list = await runBuilt(p, ['install', file, '--list']);
    expect(list.stdout).toMatch(/^plugin notes\n {4}jot +plugins\/notes\/skills\/jot\/ /m);
    const r = await runBuilt(p, ['install', file, '--skill', 'jot', '--yes', '--no-compile']);
    expect(r.code).toBe(0);
    const [pin] = lockOf(p);
    expect(pin!.source).toBe(`file:${dir}/plugins/notes/skills/jot`);
    expect(pin!.plugin).toEqual({ name: 'notes', marketplace: 'on-disk', marketplaceSource: file });
  });
});

describe.skipIf(!hasGit)('a plugin as the source', () => {
  it('lists and installs its skills with the plugin recorded, no marketplace', async () => {
    const dir = temp();
    write(dir, {
      '.codex-plugin/plugin.json': JSON.stringify({ name: 'solo', version: '0.1.0', hooks: './hooks.json' }),
      'hooks.json': HOOKS,
      'skills/solo-one/SKILL.md': skillMd('solo-one'),
    });
    const p = project();
    const list = await runBuilt(p, ['install', `file:${dir}`, '--list']);
    expect(list.stdout).toContain('plugin solo@0.1.0\n  also holds 2 hooks — not installed by Skillsmith\n');
    const r = await runBuilt(p, ['install', `file:${dir}`, '--all', '--yes', '--no-compile']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  not installed: 2 hooks of plugin solo');
    expect(lockOf(p)[0]!.plugin).toEqual({ name: 'solo', version: '0.1.0' });
  });
});
