/**
 * MCP server declarations lowered to each target's own configuration file. Pure: the
 * current text of a shared settings file comes in, the merged text goes out.
 */
import type { McpServer, Skill } from '../ksf/model';
import { TARGETS } from '../targets/registry';
import type { McpGap, TargetDef, TargetId } from '../targets/types';
import { hasJsonComment, plural } from '../text/format';

export const PLUGIN_MCP_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json';

export type { McpGap };

/** Why each target without an MCP file gets none, from the target modules (registry order). */
export function mcpGaps(targets: readonly TargetDef[] = TARGETS): Partial<Record<TargetId, McpGap>> {
  return Object.fromEntries(targets.flatMap((t) => (t.mcp && 'gap' in t.mcp ? [[t.id, t.mcp.gap]] : [])));
}
export const MCP_GAPS: Readonly<Partial<Record<TargetId, McpGap>>> = mcpGaps();

/** Where each MCP-capable target's servers land, from the target modules. */
export function mcpSurfaces(targets: readonly TargetDef[] = TARGETS): Partial<Record<TargetId, string>> {
  return Object.fromEntries(targets.flatMap((t) => (t.mcp && 'path' in t.mcp ? [[t.id, t.mcp.path]] : [])));
}
export const MCP_SURFACES: Readonly<Partial<Record<TargetId, string>>> = mcpSurfaces();

export interface McpFile {
  readonly path: string;
  readonly content: string;
  /** True for a shared settings file merged by key. */
  readonly merged: boolean;
}

export interface McpEmit {
  readonly files: readonly McpFile[];
  readonly warnings: readonly string[];
  /** Warnings saying the target cannot carry the servers at all. */
  readonly unsupported: readonly string[];
}

const VAR_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${VAR}` names a server mentions anywhere, sorted. */
export function varRefs(s: McpServer): string[] {
  const found = new Set<string>();
  const values = [s.command ?? '', ...s.args, s.url ?? '', ...Object.values(s.env), ...Object.values(s.headers)];
  for (const v of values) for (const m of v.matchAll(VAR_REF)) found.add(m[1]!);
  return [...found].sort();
}

/** Every server across skills (by server name); the same name from two skills is a conflict. */
export function collectServers(skills: readonly Skill[]): { servers: McpServer[]; conflicts: string[] } {
  const byName = new Map<string, { server: McpServer; skill: string }>();
  const conflicts: string[] = [];
  for (const skill of skills) {
    const owner = skill.manifest.skill.name;
    for (const s of skill.manifest.mcp.servers) {
      const prev = byName.get(s.name);
      if (prev && prev.skill !== owner) {
        conflicts.push(
          `MCP server "${s.name}" is declared by both "${prev.skill}" and "${owner}" — one config key cannot hold both. Rename one.`,
        );
        continue;
      }
      byName.set(s.name, { server: s, skill: owner });
    }
  }
  const servers = [...byName.values()]
    .map((v) => v.server)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { servers, conflicts };
}

/** The tool count declared across servers; `["*"]` servers make it a floor. */
export function toolBudget(servers: readonly McpServer[], cap: number): { line: string; warnings: string[] } {
  let declared = 0;
  const open: string[] = [];
  for (const s of servers) {
    if (s.tools.includes('*')) open.push(s.name);
    else declared += s.tools.length;
  }
  const bound = open.length
    ? `${declared}+ (${plural(open.length, 'server')} declare${open.length === 1 ? 's' : ''} "*")`
    : `${declared}`;
  const line = `MCP tool budget: ${bound} ${declared === 1 && !open.length ? 'tool' : 'tools'} across ${plural(servers.length, 'server')}; cap ${cap}. Real token cost is unmeasured — it needs the server's tool schemas, and reading those means running it.`;
  const warnings: string[] = [];
  if (declared > cap) {
    warnings.push(
      `MCP tool budget exceeded: ${declared} declared tools against a cap of ${cap}. Windsurf documents 100 total tools as a hard cap, past which tools are dropped — and every tool definition is carried in context for the whole session.`,
    );
  } else if (open.length) {
    warnings.push(
      `MCP tool budget cannot be bounded: ${open.join(', ')} declare tools = ["*"], so the total is at least ${declared} and may exceed the cap of ${cap}. Name the tools to make it countable.`,
    );
  }
  return { line, warnings };
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const nonEmpty = (o: Readonly<Record<string, string>>): boolean => Object.keys(o).length > 0;
const allowlist = (s: McpServer): boolean => s.tools.length > 0 && !s.tools.includes('*');

/** The program or endpoint part of an entry, shared by most dialects. */
function runs(s: McpServer, entry: Record<string, unknown>): Record<string, unknown> {
  if (s.transport === 'stdio') {
    entry.command = s.command;
    if (s.args.length) entry.args = s.args;
    if (nonEmpty(s.env)) entry.env = s.env;
  } else {
    entry.url = s.url;
    if (nonEmpty(s.headers)) entry.headers = s.headers;
  }
  return entry;
}

const httpType = (t: string): string => (t === 'streamable-http' ? 'http' : t);

/**
 * Merge `ours` under `key` of a JSON settings file: every other key and every other server
 * stays; same-named servers are replaced. A file with comments, invalid JSON or a non-object
 * is refused (a warning, nothing written).
 */
export function mergeSettings(
  current: string | undefined,
  rel: string,
  key: string,
  ours: Readonly<Record<string, unknown>>,
  target: string,
): { content: string } | { warning: string } {
  let base: Record<string, unknown> = {};
  if (current !== undefined) {
    if (hasJsonComment(current)) {
      return {
        warning: `${target}: ${rel} contains comments, which rewriting would delete. Nothing was written — add the MCP servers there by hand, or strip the comments.`,
      };
    }
    if (current.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(current);
      } catch (e) {
        const why = e instanceof Error ? e.message.split('\n')[0] : 'parse error';
        return {
          warning: `${target}: ${rel} is not valid JSON (${why}). Nothing was written — kitbash will not overwrite a settings file it cannot read.`,
        };
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return {
          warning: `${target}: ${rel} is not a JSON object. Nothing was written — kitbash will not overwrite a settings file it cannot read.`,
        };
      }
      base = parsed as Record<string, unknown>;
    }
  }
  const existing = base[key];
  const servers: Record<string, unknown> =
    existing && typeof existing === 'object' && !Array.isArray(existing)
      ? { ...(existing as Record<string, unknown>) }
      : {};
  for (const [name, entry] of Object.entries(ours)) servers[name] = entry;
  return { content: json({ ...base, [key]: servers }) };
}

const GEMINI_STRIPPED = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT/i;
const ZED_MAX_TIMEOUT_S = 600;

/** MCP output for one target; `read` gives the current text of a shared settings file. */
export function emitMcp(
  def: TargetDef,
  servers: readonly McpServer[],
  read: (path: string) => string | undefined,
): McpEmit {
  if (servers.length === 0 || !def.mcp) return { files: [], warnings: [], unsupported: [] };
  const target = def.id;
  if ('gap' in def.mcp) {
    const gap = def.mcp.gap;
    const n = servers.length;
    return {
      files: [],
      warnings: [],
      unsupported: [
        `${target}: cannot honor ${n} declared MCP server${n === 1 ? '' : 's'} (${gap.reason}) — ${gap.detail}. Nothing was written; configure ${n === 1 ? 'it' : 'them'} in that client directly.`,
      ],
    };
  }
  const warnings: string[] = [];
  const out: Record<string, unknown> = {};
  const done = (files: McpFile[]): McpEmit => ({ files, warnings, unsupported: [] });
  const rel = def.mcp.path;
  switch (def.mcp.shape) {
    case 'claude-mcp-json': {
      for (const s of servers) {
        out[s.name] = runs(s, { type: httpType(s.transport) });
        if (allowlist(s)) {
          warnings.push(
            `${target}: "${s.name}" declares a tools allowlist, which .mcp.json has no field for — it belongs in .claude/settings.json permissions, which Kitbash does not write. The allowlist is not enforced here.`,
          );
        }
      }
      warnings.push(
        `${target}: a project .mcp.json prompts for approval in an interactive session, but is loaded without any prompt under \`claude -p\`, the Agent SDK and cloud sessions — in CI, the install gate you just passed is the only review these servers get.`,
      );
      return done([{ path: rel, content: json({ mcpServers: out }), merged: false }]);
    }
    case 'copilot-mcp-json': {
      for (const s of servers) {
        const e = runs(s, { type: httpType(s.transport) });
        e.tools = s.tools;
        if (s.timeoutMs !== undefined) e.timeout = s.timeoutMs;
        out[s.name] = e;
      }
      return done([{ path: rel, content: json({ mcpServers: out }), merged: false }]);
    }
    case 'cursor-mcp-json': {
      for (const s of servers) {
        out[s.name] = runs(s, s.transport === 'stdio' ? { type: 'stdio' } : {});
        if (allowlist(s)) {
          warnings.push(
            `${target}: "${s.name}" declares a tools allowlist, which .cursor/mcp.json has no field for — Cursor will expose every tool the server offers. The allowlist is not enforced there.`,
          );
        }
        if (s.timeoutMs !== undefined)
          warnings.push(
            `${target}: "${s.name}" declares timeout_ms, which .cursor/mcp.json has no documented field for — dropped.`,
          );
      }
      return done([{ path: rel, content: json({ mcpServers: out }), merged: false }]);
    }
    case 'gemini-settings': {
      for (const s of servers) {
        const e: Record<string, unknown> = {};
        if (s.transport === 'stdio') runs(s, e);
        else {
          e.url = s.url;
          e.type = s.transport === 'sse' ? 'sse' : 'http';
          if (nonEmpty(s.headers)) e.headers = s.headers;
        }
        if (allowlist(s)) e.includeTools = s.tools;
        if (s.timeoutMs !== undefined) e.timeout = s.timeoutMs;
        out[s.name] = e;
        const stripped = varRefs(s).filter((r) => GEMINI_STRIPPED.test(r));
        if (stripped.length) {
          warnings.push(
            `${target}: "${s.name}" references ${stripped.map((r) => `\${${r}}`).join(', ')}, and Gemini strips credential-shaped variables from the environment it passes to MCP servers. Set them explicitly in this server's env, or it will fail to authenticate with no visible cause.`,
          );
        }
      }
      const merged = mergeSettings(read(rel), rel, 'mcpServers', out, target);
      if ('warning' in merged) {
        warnings.push(merged.warning);
        return done([]);
      }
      return done([{ path: rel, content: merged.content, merged: true }]);
    }
    case 'zed-settings': {
      for (const s of servers) {
        const refs = varRefs(s);
        if (refs.length) {
          warnings.push(
            `${target}: skipped MCP server "${s.name}" — it references ${refs.map((r) => `\${${r}}`).join(', ')}, and Zed performs no variable interpolation, so the reference would be passed through literally.`,
          );
          continue;
        }
        const e = runs(s, {});
        if (s.timeoutMs !== undefined) {
          const secs = Math.ceil(s.timeoutMs / 1000);
          if (secs > ZED_MAX_TIMEOUT_S) {
            warnings.push(
              `${target}: "${s.name}" declares timeout_ms ${s.timeoutMs} (${secs}s), above Zed's ${ZED_MAX_TIMEOUT_S}s maximum, which it clamps silently — written as ${ZED_MAX_TIMEOUT_S}s.`,
            );
          }
          e.timeout = Math.min(secs, ZED_MAX_TIMEOUT_S);
        }
        out[s.name] = e;
        if (allowlist(s)) {
          warnings.push(
            `${target}: "${s.name}" declares a tools allowlist, which lives under agent.profiles in Zed's settings rather than beside the server — kitbash does not write that subtree, so the allowlist is not enforced there.`,
          );
        }
      }
      if (Object.keys(out).length === 0) return done([]);
      const merged = mergeSettings(read(rel), rel, 'context_servers', out, target);
      if ('warning' in merged) {
        warnings.push(merged.warning);
        return done([]);
      }
      warnings.push(
        `${target}: an untrusted worktree makes Zed discard the whole of ${rel}, MCP servers included — trust the worktree in Zed if the servers do not appear.`,
      );
      return done([{ path: rel, content: merged.content, merged: true }]);
    }
    case 'agent-plugin-mcp-json': {
      for (const s of servers) {
        const refs = varRefs(s);
        if (refs.length) {
          warnings.push(
            `${target}: skipped MCP server "${s.name}" — it references ${refs.map((r) => `\${${r}}`).join(', ')}, and the Agent Plugins format defines no credential reference and expands no variables. Emitting it would produce a server that cannot start.`,
          );
          continue;
        }
        out[s.name] = runs(s, { type: s.transport });
      }
      for (const s of servers) {
        if (varRefs(s).length) continue;
        if (allowlist(s)) {
          warnings.push(
            `${target}: "${s.name}" declares a tools allowlist, which the Agent Plugins mcp.json has no field for — the client will expose every tool the server offers.`,
          );
        }
        if (s.timeoutMs !== undefined)
          warnings.push(
            `${target}: "${s.name}" declares timeout_ms, which the Agent Plugins mcp.json has no field for — dropped.`,
          );
      }
      if (Object.keys(out).length === 0) return done([]);
      return done([{ path: rel, content: json({ $schema: PLUGIN_MCP_SCHEMA, mcpServers: out }), merged: false }]);
    }
  }
}
