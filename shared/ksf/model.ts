import type { SkillTree } from './tree';
import type { TomlTable } from './toml';

export const SEMVER_RE = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;
/**
 * What a new skill starts with (the new-skill form) and what a missing field is filled with.
 * Here, not beside the repairs that also use it: those load semver, which a writer of a new
 * skill's files (and the IPC dispatch that loads it) has no use for.
 */
export const NEW_SKILL_DEFAULTS = { version: '0.1.0', budget: 2000, standing: 100, disclosure: 'lazy' } as const;
export const COMMAND_RE = /^\/[a-z][a-z0-9-]*$/;
export const ARTIFACT_REF_RE = /^[a-z][a-z0-9-]*@\d+$/;

export const KNOWN_TABLES = [
  'skill',
  'context',
  'triggers',
  'permissions',
  'artifacts',
  'targets',
  'lore',
  'dependencies',
  'mcp',
] as const;
/** Keys each fixed table understands; anything else in them is a typo the author should see. */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  skill: ['name', 'version', 'description', 'license', 'homepage', 'authors'],
  context: ['budget', 'standing', 'disclosure'],
  triggers: ['commands', 'auto', 'events'],
  permissions: ['tools', 'network', 'write'],
  artifacts: ['produces', 'consumes'],
  targets: ['requires', 'mode'],
  lore: ['reads', 'writes'],
  mcp: ['on_unsupported', 'servers'],
};
export const EVENTS = ['pre-push', 'pre-commit', 'ci', 'pr-open'] as const;
export const CAPABILITIES = ['scripts', 'hooks', 'subagents', 'network'] as const;
export const LORE_COLLECTIONS = ['decisions', 'conventions', 'invariants', 'map'] as const;
export const MCP_TRANSPORTS = ['stdio', 'streamable-http', 'sse'] as const;

export type Disclosure = 'lazy' | 'eager';
export type Mode = 'skill' | 'gate';

export interface McpServer {
  readonly name: string;
  /** As declared; validated by the mcp lint, not by the loader. */
  readonly transport: string;
  readonly command?: string;
  readonly args: readonly string[];
  readonly url?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly tools: readonly string[];
  readonly timeoutMs?: number;
}

export interface Manifest {
  readonly skill: {
    readonly name: string;
    readonly version: string;
    readonly description: string;
    readonly license?: string;
    readonly homepage?: string;
    readonly authors: readonly string[];
  };
  readonly context: { readonly budget: number; readonly standing: number; readonly disclosure: Disclosure };
  readonly triggers: {
    readonly commands: readonly string[];
    readonly auto: readonly string[];
    readonly events: readonly string[];
  };
  readonly permissions: { readonly tools: readonly string[]; readonly network: boolean; readonly write: boolean };
  readonly artifacts: { readonly produces: readonly string[]; readonly consumes: readonly string[] };
  readonly targets: { readonly requires: readonly string[]; readonly mode: Mode };
  readonly lore: { readonly reads: readonly string[]; readonly writes: readonly string[] };
  readonly dependencies: Readonly<Record<string, string>>;
  readonly mcp: { readonly onUnsupported: 'warn' | 'error'; readonly servers: readonly McpServer[] };
}

export interface Frontmatter {
  /** The whole block including both `---` lines. */
  readonly raw: string;
  /** Values read from it (keys lower-cased), when it is a mapping. */
  readonly data: Readonly<Record<string, string>>;
  /** Set when the block is not valid YAML and was read line by line instead. */
  readonly yamlError?: string;
}

export interface Skill {
  readonly tree: SkillTree;
  readonly manifest: Manifest;
  readonly manifested: boolean;
  /** The parsed skill.toml, for checks that look past the typed manifest. */
  readonly rawManifest?: TomlTable;
  /** SKILL.md without its BOM. */
  readonly skillMd: string;
  readonly frontmatter?: Frontmatter;
  /** Offset in `skillMd` where the instructions (the body) begin. */
  readonly bodyOffset: number;
  /** The instructions: SKILL.md minus frontmatter (kitbash keeps it for manifested skills). */
  readonly body: string;
}
