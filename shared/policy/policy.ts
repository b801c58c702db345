import type { Manifest } from '../ksf/model';
import type { Policy } from '../project/config';

/**
 * A policy pattern, exactly as kitbash 0.24.1 matches one (spec D271): `*` matches any run
 * of characters but a line break, '/' included; every other character is literal;
 * case-sensitive. Not a path glob (shared/text/glob.ts): a policy file must give the same
 * verdict under both tools, and what it matches — a source or a server's command — is no path.
 */
export function globMatches(pattern: string, subject: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
  return re.test(subject);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `allow_sources` against the canonical form only (the reference's fix A7). */
export function sourceViolations(policy: Policy, raw: string, canonical: string): string[] {
  if (policy.allowSources.length === 0) return [];
  if (policy.allowSources.some((p) => globMatches(p, canonical))) return [];
  const shown = canonical === raw ? `"${raw}"` : `"${raw}" (${canonical})`;
  return [`source ${shown} is not in allow_sources (${policy.allowSources.join(', ')})`];
}

/** What a manifest declares that the policy refuses, in the reference's words and order. */
export function manifestViolations(policy: Policy, m: Manifest): string[] {
  const n = m.skill.name;
  const out: string[] = [];
  if (policy.denyNetwork && m.permissions.network) out.push(`${n} declares network permission and deny_network = true`);
  if (policy.denyWrite && m.permissions.write) out.push(`${n} declares write permission and deny_write = true`);
  if (policy.maxBudget !== undefined && m.context.budget > policy.maxBudget)
    out.push(`${n} budget ${m.context.budget} exceeds max_budget ${policy.maxBudget}`);
  for (const s of m.mcp.servers) {
    if (policy.denyMcp) {
      out.push(`${n} declares MCP server "${s.name}" and deny_mcp = true`);
      continue;
    }
    if (policy.allowMcpServers.length === 0) continue;
    const subject = s.transport === 'stdio' ? [s.command ?? '', ...s.args].join(' ').trim() : (s.url ?? '');
    if (!policy.allowMcpServers.some((p) => globMatches(p, subject))) {
      out.push(
        `${n} MCP server "${s.name}" (${subject}) is not in allow_mcp_servers (${policy.allowMcpServers.join(', ')})`,
      );
    }
  }
  return out;
}
