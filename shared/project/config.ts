import { fileError, type Result } from '../result';
import { isTable, parseTomlFile, type TomlTable } from '../ksf/toml';
import { readExceptions, type PolicyException } from '../policy/exceptions';

/**
 * `[policy]` as the reference reads it: wrong types read as "off", unknown keys are
 * ignored, and `deny_remote_exec` is on unless it is literally `false`.
 */
export interface Policy {
  readonly allowSources: readonly string[];
  readonly denyNetwork: boolean;
  readonly denyWrite: boolean;
  readonly maxBudget?: number;
  readonly denyRemoteExec: boolean;
  readonly denyMcp: boolean;
  readonly maxMcpTools: number;
  readonly allowMcpServers: readonly string[];
}

export const DEFAULT_MAX_MCP_TOOLS = 100;

export interface ProjectConfig {
  /** `[project].targets` when present (ids as written, unvalidated); absent → detect by markers. */
  readonly targets?: readonly string[];
  /** Absent when the file has no `[policy]` table — the reference then applies no policy at all. */
  readonly policy?: Policy;
  /**
   * Valid `[[policy.exceptions]]` entries that take effect (Skillsmith's addition; the reference ignores the key).
   * As parsed here: every valid entry. As main reads it for a project: only those this user confirmed (spec D190).
   */
  readonly exceptions: readonly PolicyException[];
  /** Valid entries main held back because this user has not confirmed them: shown, never applied. */
  readonly unconfirmedExceptions?: readonly PolicyException[];
  /** One line per entry that was dropped because it is malformed or names a check never acceptable. */
  readonly exceptionProblems: readonly string[];
  /**
   * The whole parsed document, for additive tables other modules own (e.g. `[sources]`).
   * Never mutated.
   */
  readonly raw: Readonly<TomlTable>;
}

export const CONFIG_FILE = 'kitbash.toml';

/** A project without `kitbash.toml` behaves like an empty one. */
export const EMPTY_CONFIG: ProjectConfig = { raw: {}, exceptions: [], exceptionProblems: [] };

/** Parse `kitbash.toml`; `file` is the display path used in the one-line error. */
export function parseProjectConfig(text: string, file: string = CONFIG_FILE): Result<ProjectConfig> {
  const conflict = conflictMarkerLine(text);
  if (conflict !== undefined) {
    return {
      ok: false,
      error: fileError(file, 'contains an unresolved merge-conflict marker — resolve the conflict first', {
        line: conflict,
        column: 1,
      }),
    };
  }
  const parsed = parseTomlFile(text, file);
  if (!parsed.ok) return parsed;
  const raw = parsed.value;
  const project = isTable(raw.project) ? raw.project : undefined;
  const targets =
    project && Array.isArray(project.targets)
      ? project.targets.filter((t): t is string => typeof t === 'string')
      : undefined;
  const { exceptions, problems } = readExceptions(raw.policy);
  return {
    ok: true,
    value: {
      exceptions,
      exceptionProblems: problems.map((p) => `${file}: ${p}`),
      ...(targets !== undefined ? { targets } : {}),
      ...(isTable(raw.policy) ? { policy: readPolicy(raw.policy) } : {}),
      raw,
    },
  };
}

function readPolicy(t: TomlTable): Policy {
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  const num = (v: unknown): number | undefined =>
    typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : undefined;
  const maxBudget = num(t.max_budget);
  return {
    allowSources: strings(t.allow_sources),
    denyNetwork: t.deny_network === true,
    denyWrite: t.deny_write === true,
    ...(maxBudget !== undefined ? { maxBudget } : {}),
    denyRemoteExec: t.deny_remote_exec !== false,
    denyMcp: t.deny_mcp === true,
    maxMcpTools: num(t.max_mcp_tools) ?? DEFAULT_MAX_MCP_TOOLS,
    allowMcpServers: strings(t.allow_mcp_servers),
  };
}

/**
 * `[policy] enforce_in_agent`: whether compile adds each agent's script guard (SPEC D200). On
 * unless literally `false`, with or without a `[policy]` table, since it is what makes the
 * review's "held in the agent" true.
 */
export function enforceInAgent(config: ProjectConfig): boolean {
  return !(isTable(config.raw.policy) && config.raw.policy.enforce_in_agent === false);
}

/**
 * Git leaves `<<<<<<<` / `>>>>>>>` at line starts; TOML would report them as a puzzling
 * syntax error. (`=======` alone is not taken as a marker: it is legal inside a string.)
 */
export function conflictMarkerLine(text: string): number | undefined {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => /^(<{7}|>{7})(\s|$)/.test(l));
  return i >= 0 ? i + 1 : undefined;
}
