import type { SettingsData, SettingsEdit } from '../../../../shared/ipc/channels/settings';

/** What the form holds: every field as the user sees it; `null` = key absent (the default applies). */
export interface Draft {
  readonly targets: readonly string[] | null;
  readonly policy: Readonly<Record<PolicyField, boolean | number | readonly string[] | null>>;
  readonly remove: ReadonlySet<number>;
}

export type PolicyField =
  | 'allow_sources'
  | 'deny_network'
  | 'deny_write'
  | 'max_budget'
  | 'deny_remote_exec'
  | 'deny_mcp'
  | 'max_mcp_tools'
  | 'allow_mcp_servers'
  | 'enforce_in_agent';

export const BOOLEAN_FIELDS = [
  { key: 'deny_network', label: 'Refuse skills that declare network access', fallback: false },
  { key: 'deny_write', label: 'Refuse skills that declare write access', fallback: false },
  { key: 'deny_remote_exec', label: 'Block download-then-execute findings (remote-exec)', fallback: true },
  { key: 'deny_mcp', label: 'Refuse skills that declare MCP servers', fallback: false },
  {
    key: 'enforce_in_agent',
    label: 'Run delivered scripts through the sandbox inside agents that allow it (a hook in Claude Code)',
    fallback: true,
  },
] as const satisfies readonly { key: PolicyField; label: string; fallback: boolean }[];

export const NUMBER_FIELDS = [
  { key: 'max_budget', label: 'Max context budget per skill (tokens)', placeholder: 'no limit' },
  { key: 'max_mcp_tools', label: 'Max MCP tools in total', placeholder: '100 (default)' },
] as const satisfies readonly { key: PolicyField; label: string; placeholder: string }[];

export const LIST_FIELDS = [
  { key: 'allow_sources', label: 'Allowed sources (globs, one per line)', placeholder: 'any source' },
  { key: 'allow_mcp_servers', label: 'Allowed MCP servers (globs, one per line)', placeholder: 'any server' },
] as const satisfies readonly { key: PolicyField; label: string; placeholder: string }[];

const FIELDS: readonly PolicyField[] = [...BOOLEAN_FIELDS, ...NUMBER_FIELDS, ...LIST_FIELDS].map((f) => f.key);

export function draftOf(d: SettingsData): Draft {
  const policy = Object.fromEntries(FIELDS.map((k) => [k, d.policy?.[k] ?? null])) as Draft['policy'];
  return { targets: d.targets, policy, remove: new Set() };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The named edits that turn what was read into the draft (only what changed). */
export function editsOf(d: SettingsData, draft: Draft): SettingsEdit[] {
  const base = draftOf(d);
  const out: SettingsEdit[] = [];
  if (!same(base.targets, draft.targets))
    out.push({ kind: 'targets', targets: draft.targets ? [...draft.targets] : null });
  for (const k of FIELDS) {
    const v = draft.policy[k];
    if (!same(base.policy[k], v))
      out.push({
        kind: 'policy',
        key: k,
        value: Array.isArray(v) ? [...(v as string[])] : (v as boolean | number | null),
      });
  }
  for (const index of [...draft.remove].sort((a, b) => a - b)) out.push({ kind: 'removeException', index });
  return out;
}
