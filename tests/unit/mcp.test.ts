import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../shared/ksf/model';
import { lintMcpServers } from '../../shared/lint/mcp';
import { check, lintTree, manifested, manifestToml, mustCheck } from './helpers';

function stdio(over: Partial<McpServer> = {}): McpServer {
  return {
    name: 'fs',
    transport: 'stdio',
    command: 'mcp-server-fs',
    args: ['--root', '.'],
    env: {},
    headers: {},
    tools: ['read_file'],
    ...over,
  };
}
function remote(over: Partial<McpServer> = {}): McpServer {
  return {
    name: 'api',
    transport: 'streamable-http',
    url: 'https://mcp.example.com/v1',
    args: [],
    env: {},
    headers: {},
    tools: ['search'],
    ...over,
  };
}
const failuresOf = (...servers: McpServer[]): string[] => lintMcpServers(servers).failures;

describe('lintMcpServers (SPEC §6.2)', () => {
  it('passes clean stdio, streamable-http and sse servers', () => {
    expect(lintMcpServers([stdio(), remote(), remote({ name: 'events', transport: 'sse' })])).toEqual({
      failures: [],
      warnings: [],
    });
  });

  it.each(['', 'Upper', '-lead', '_lead', 'has space', 'dot.name', 'x'.repeat(65)])('server name %j', (name) => {
    expect(failuresOf(stdio({ name }))).toContain(
      `mcp.servers.${name}: server name must match /^[a-z0-9][a-z0-9_-]{0,63}$/`,
    );
  });

  it.each(['a', '0', 'a_b-c', 'x'.repeat(64)])('server name %j is fine', (name) => {
    expect(failuresOf(stdio({ name }))).toEqual([]);
  });

  it('case-insensitive duplicates', () => {
    expect(failuresOf(stdio({ name: 'Dup' }), stdio({ name: 'dup' }))).toContain(
      'mcp.servers.dup: duplicate server name (names are case-insensitive across clients)',
    );
  });

  it('an unknown transport is reported and the server is not checked further', () => {
    expect(failuresOf(stdio({ transport: 'websocket', tools: [], command: 'a b' }))).toEqual([
      'mcp.servers.fs: transport "websocket" must be one of stdio, streamable-http, sse',
    ]);
  });

  it('an empty tools list is an error', () => {
    expect(failuresOf(stdio({ tools: [] }))).toEqual([
      'mcp.servers.fs: tools is required — list the tools this server may expose, or ["*"] to allow all (which the install gate will show prominently)',
    ]);
  });

  it('["*"] is only a warning', () => {
    expect(lintMcpServers([stdio({ tools: ['*'] })])).toEqual({
      failures: [],
      warnings: [
        'mcp.servers.fs: tools = ["*"] — every tool this server exposes is allowed, including ones added in a later version',
      ],
    });
  });

  it('stdio: command required, url refused', () => {
    const { command: _c, ...noCommand } = stdio();
    expect(failuresOf({ ...noCommand, url: 'https://x.example' })).toEqual([
      'mcp.servers.fs: stdio transport requires a command',
      'mcp.servers.fs: stdio transport must not declare a url',
    ]);
  });

  it('stdio: a command with whitespace', () => {
    expect(failuresOf(stdio({ command: 'npx mcp-server' }))).toEqual([
      'mcp.servers.fs: command must be a single executable, not a shell string — put arguments in args',
    ]);
  });

  it.each([';', '&', '|', '>', '<', '$', '(', ')', '{', '}', '[', ']', '!', '*', '?', '~', '`'])(
    'stdio: command with %j',
    (meta) => {
      expect(failuresOf(stdio({ command: `tool${meta}x` }))).toEqual([
        'mcp.servers.fs: command contains shell metacharacters; it is executed directly, with no shell',
      ]);
    },
  );

  it('stdio: a command with a line break counts as whitespace', () => {
    expect(failuresOf(stdio({ command: 'tool\nrm' }))).toHaveLength(1);
  });

  it('stdio: args with shell metacharacters, unless a ${VAR} reference', () => {
    expect(failuresOf(stdio({ args: ['--x', 'a;rm -rf /', '$(id)', '${HOME}', '--root=${ROOT}'] }))).toEqual([
      'mcp.servers.fs: arg "a;rm -rf /" contains shell metacharacters; args are passed directly, with no shell',
      'mcp.servers.fs: arg "$(id)" contains shell metacharacters; args are passed directly, with no shell',
    ]);
  });

  it.each(['pkg@latest', 'image:latest', 'pkg@^1.2.0', 'pkg@~1.2.0', 'pkg@>1', 'pkg@>=1.0.0', 'pkg@*'])(
    'stdio: unpinned arg %j',
    (arg) => {
      expect(failuresOf(stdio({ args: [arg] }))).toContain(
        `mcp.servers.fs: arg "${arg}" is not pinned to an exact version — an unpinned server can change under you between runs`,
      );
    },
  );

  it('stdio: exact versions are pinned', () => {
    expect(failuresOf(stdio({ args: ['pkg@1.2.3', 'image:1.2', '@scope/pkg@0.4.0'] }))).toEqual([]);
  });

  it('remote: url required, command refused', () => {
    const { url: _u, ...noUrl } = remote();
    expect(failuresOf({ ...noUrl, command: 'x' })).toEqual([
      'mcp.servers.api: streamable-http transport requires a url',
      'mcp.servers.api: streamable-http transport must not declare a command',
    ]);
    expect(failuresOf({ ...noUrl, transport: 'sse' })).toEqual(['mcp.servers.api: sse transport requires a url']);
  });

  it('remote: url must be absolute', () => {
    expect(failuresOf(remote({ url: '/relative/path' }))).toEqual([
      'mcp.servers.api: url "/relative/path" is not a valid absolute URL',
    ]);
  });

  it('remote: only http(s) schemes', () => {
    expect(failuresOf(remote({ url: 'ftp://mcp.example.com' }))).toEqual([
      'mcp.servers.api: url scheme "ftp" is not allowed — use https (or http on loopback)',
    ]);
    expect(failuresOf(remote({ url: 'ws://mcp.example.com' }))).toEqual([
      'mcp.servers.api: url scheme "ws" is not allowed — use https (or http on loopback)',
    ]);
  });

  it('remote: plain http only on loopback', () => {
    expect(failuresOf(remote({ url: 'http://mcp.example.com' }))).toEqual([
      'mcp.servers.api: url uses plain http off-loopback — credentials and tool traffic would cross the network in the clear',
    ]);
    for (const url of ['http://localhost:3000/mcp', 'http://127.0.0.1:8080', 'http://[::1]:9000/'])
      expect(failuresOf(remote({ url }))).toEqual([]);
  });

  it('remote: no embedded credentials', () => {
    expect(failuresOf(remote({ url: 'https://user:pw@mcp.example.com' }))).toEqual([
      'mcp.servers.api: url must not embed credentials (user:password@) — use headers with a ${VAR} reference',
    ]);
    expect(failuresOf(remote({ url: 'https://user@mcp.example.com' }))).toHaveLength(1);
  });

  it.each([0, -5, 1.5, Number.NaN])('timeout_ms %s', (timeoutMs) => {
    expect(failuresOf(stdio({ timeoutMs }))).toEqual(['mcp.servers.fs: timeout_ms must be a positive integer']);
  });

  it('timeout_ms 1 is fine', () => {
    expect(failuresOf(stdio({ timeoutMs: 1 }))).toEqual([]);
  });

  it.each([
    ['an API key', `sk-${'a'.repeat(20)}`],
    ['an API key', `pk-${'b'.repeat(16)}`],
    ['an API key', `rk-${'c'.repeat(30)}`],
    ['a GitHub token', `ghp_${'a'.repeat(36)}`],
    ['a GitHub token', `gho_${'a'.repeat(16)}`],
    ['a GitHub token', `ghs_${'a'.repeat(20)}`],
    ['a Slack token', `xoxb-${'1'.repeat(12)}`],
    ['an AWS access key', `AKIA${'Q'.repeat(16)}`],
    ['a JWT', `eyJ${'a'.repeat(12)}.${'b'.repeat(12)}.sig`],
    ['a private key', '-----BEGIN RSA PRIVATE KEY-----\nabc'],
  ])('env value shaped like %s', (what, value) => {
    expect(failuresOf(stdio({ env: { VALUE: value } }))).toEqual([
      `mcp.servers.fs: env.VALUE looks like ${what} committed in plain text — use a \${VAR} reference instead`,
    ]);
  });

  it('header value shaped like a credential', () => {
    expect(failuresOf(remote({ headers: { 'X-Key': `sk-${'z'.repeat(30)}` } }))).toEqual([
      'mcp.servers.api: headers.X-Key looks like an API key committed in plain text — use a ${VAR} reference instead',
    ]);
  });

  it.each([
    'GITHUB_TOKEN',
    'client_secret',
    'DB_PASSWORD',
    'passwd',
    'OPENAI_API_KEY',
    'apikey',
    'api-key',
    'Credentials',
    'Authorization',
  ])('a literal under a credential-named key %j', (key) => {
    expect(failuresOf(stdio({ env: { [key]: 'literal-value' } }))).toEqual([
      `mcp.servers.fs: env.${key} is named as a credential but holds a literal — use a \${VAR} reference so nothing secret is committed`,
    ]);
  });

  it('${VAR} references and empty values are allowed under credential keys', () => {
    expect(failuresOf(stdio({ env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', API_KEY: '', LOG_LEVEL: 'debug' } }))).toEqual(
      [],
    );
    expect(failuresOf(remote({ headers: { Authorization: 'Bearer ${TOKEN}' } }))).toEqual([]);
  });
});

describe('mcp in lintSkill', () => {
  const toml = (servers: string): string => manifestToml({ extra: servers });

  it('is absent without servers', () => {
    expect(check(lintTree(manifested('Body')), 'mcp')).toBeUndefined();
  });

  it('passes listing the servers in name order', () => {
    const c = mustCheck(
      lintTree(
        manifested(
          'Body',
          {},
          toml(
            '[mcp.servers.zed]\ncommand = "zed-mcp"\ntools = ["a"]\n[mcp.servers.abc]\ncommand = "abc-mcp"\ntools = ["b"]\n',
          ),
        ),
      ),
      'mcp',
    );
    expect(c).toEqual({ id: 'mcp', status: 'pass', detail: '2 servers: abc, zed' });
  });

  it('warns on ["*"] only', () => {
    const c = mustCheck(
      lintTree(manifested('Body', {}, toml('[mcp.servers.fs]\ncommand = "fs"\ntools = ["*"]\n'))),
      'mcp',
    );
    expect(c.status).toBe('warn');
    expect(c.detail).toContain('tools = ["*"]');
  });

  it('fails with the failures joined by "; ", hiding the warnings', () => {
    const c = mustCheck(
      lintTree(
        manifested(
          'Body',
          {},
          toml('[mcp.servers.a]\ncommand = "a"\ntools = ["*"]\n[mcp.servers.b]\ncommand = "b c"\ntools = []\n'),
        ),
      ),
      'mcp',
    );
    expect(c.status).toBe('fail');
    expect(c.detail).toBe(
      'mcp.servers.b: tools is required — list the tools this server may expose, or ["*"] to allow all (which the install gate will show prominently); mcp.servers.b: command must be a single executable, not a shell string — put arguments in args',
    );
  });

  it('ignores a non-table server entry', () => {
    expect(check(lintTree(manifested('Body', {}, toml('[mcp.servers]\nbogus = "x"\n'))), 'mcp')).toBeUndefined();
  });
});
