import { MCP_TRANSPORTS, type McpServer } from '../ksf/model';

export interface McpFindings {
  readonly failures: string[];
  readonly warnings: string[];
}

const SERVER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SHELL_META = /[;&|><`$(){}[\]!*?~\n]/;
const VAR_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/;
const UNPINNED = /(?:@latest|@\^|@~|@>=|@>|:latest|@\*)/;
const CREDENTIAL_KEY = /(?:token|secret|password|passwd|api[_-]?key|credential|auth)/i;
const SECRET_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}$/, 'an API key'],
  [/^gh[pousr]_[A-Za-z0-9]{16,}$/, 'a GitHub token'],
  [/^xox[abprs]-[A-Za-z0-9-]{10,}$/, 'a Slack token'],
  [/^AKIA[0-9A-Z]{12,}$/, 'an AWS access key'],
  [/^ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./, 'a JWT'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
];
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * MCP declarations start a program with the agent's permissions, so every mistake that
 * could run something other than what the reviewer read is an install-blocking failure.
 */
export function lintMcpServers(servers: readonly McpServer[]): McpFindings {
  const failures: string[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const s of servers) {
    const fail = (m: string) => failures.push(`mcp.servers.${s.name}: ${m}`);
    if (!SERVER_NAME.test(s.name)) fail(`server name must match ${String(SERVER_NAME)}`);
    const folded = s.name.toLowerCase();
    if (seen.has(folded)) fail('duplicate server name (names are case-insensitive across clients)');
    seen.add(folded);

    if (!(MCP_TRANSPORTS as readonly string[]).includes(s.transport)) {
      fail(`transport "${s.transport}" must be one of ${MCP_TRANSPORTS.join(', ')}`);
      continue;
    }
    if (s.tools.length === 0) {
      fail(
        'tools is required — list the tools this server may expose, or ["*"] to allow all (which the install gate will show prominently)',
      );
    } else if (s.tools.includes('*')) {
      warnings.push(
        `mcp.servers.${s.name}: tools = ["*"] — every tool this server exposes is allowed, including ones added in a later version`,
      );
    }

    if (s.transport === 'stdio') lintStdio(s, fail);
    else lintRemote(s, fail);

    if (s.timeoutMs !== undefined && !(Number.isInteger(s.timeoutMs) && s.timeoutMs > 0))
      fail('timeout_ms must be a positive integer');
    lintValues('env', s.env, fail);
    lintValues('headers', s.headers, fail);
  }
  return { failures, warnings };
}

function lintStdio(s: McpServer, fail: (m: string) => void): void {
  if (s.command === undefined) fail('stdio transport requires a command');
  if (s.url !== undefined) fail('stdio transport must not declare a url');
  if (s.command !== undefined) {
    if (/\s/.test(s.command)) fail('command must be a single executable, not a shell string — put arguments in args');
    else if (SHELL_META.test(s.command))
      fail('command contains shell metacharacters; it is executed directly, with no shell');
  }
  for (const a of s.args) {
    if (SHELL_META.test(a) && !VAR_REF.test(a))
      fail(`arg "${a}" contains shell metacharacters; args are passed directly, with no shell`);
    if (UNPINNED.test(a))
      fail(`arg "${a}" is not pinned to an exact version — an unpinned server can change under you between runs`);
  }
}

function lintRemote(s: McpServer, fail: (m: string) => void): void {
  if (s.url === undefined) fail(`${s.transport} transport requires a url`);
  if (s.command !== undefined) fail(`${s.transport} transport must not declare a command`);
  if (s.url === undefined) return;
  let url: URL;
  try {
    url = new URL(s.url);
  } catch {
    fail(`url "${s.url}" is not a valid absolute URL`);
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    fail(`url scheme "${url.protocol.replace(/:$/, '')}" is not allowed — use https (or http on loopback)`);
  } else if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    fail('url uses plain http off-loopback — credentials and tool traffic would cross the network in the clear');
  }
  if (url.username !== '' || url.password !== '')
    fail('url must not embed credentials (user:password@) — use headers with a ${VAR} reference');
}

function lintValues(
  where: 'env' | 'headers',
  values: Readonly<Record<string, string>>,
  fail: (m: string) => void,
): void {
  for (const [k, v] of Object.entries(values)) {
    const shape = SECRET_SHAPES.find(([re]) => re.test(v));
    if (shape) fail(`${where}.${k} looks like ${shape[1]} committed in plain text — use a \${VAR} reference instead`);
    else if (CREDENTIAL_KEY.test(k) && v !== '' && !VAR_REF.test(v)) {
      fail(
        `${where}.${k} is named as a credential but holds a literal — use a \${VAR} reference so nothing secret is committed`,
      );
    }
  }
}
