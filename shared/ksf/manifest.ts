import { COMMAND_RE, SEMVER_RE, type Manifest, type McpServer } from './model';
import { KSF_NAME_RE, isKsfName } from '../names';
import { isTable, type TomlTable } from './toml';
import { fail, type Result } from '../result';

/** A failure is `invalid manifest` with every violation in `detail`; the caller names the file. */
export type ManifestResult = Result<Manifest>;

/** What the manifest accepts for `context.budget` and `context.standing` (tokens, inclusive). */
export const BUDGET_RANGE = { min: 50, max: 20000 } as const;
export const STANDING_RANGE = { min: 0, max: 500 } as const;

const ARRAY_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['triggers', 'commands'],
  ['triggers', 'auto'],
  ['triggers', 'events'],
  ['permissions', 'tools'],
  ['artifacts', 'produces'],
  ['artifacts', 'consumes'],
  ['targets', 'requires'],
  ['lore', 'reads'],
  ['lore', 'writes'],
];

/**
 * The hard-error tier: every violation is collected (in the reference's order) so the
 * author fixes them in one pass. Softer tiers live in shared/lint.
 */
export function validateManifest(raw: TomlTable): ManifestResult {
  const t = (name: string): TomlTable => {
    const v = raw[name];
    return isTable(v) ? v : {};
  };
  const problems: string[] = [];
  const skill = t('skill');
  const context = t('context');

  const name = typeof skill.name === 'string' ? skill.name : '';
  if (!isKsfName(name)) problems.push(`skill.name "${name}" must match ${String(KSF_NAME_RE)}`);
  const version = typeof skill.version === 'string' ? skill.version : '';
  if (!SEMVER_RE.test(version)) problems.push(`skill.version "${version}" is not semver`);
  const description = typeof skill.description === 'string' ? skill.description : '';
  if (description.length < 10 || description.length > 200) problems.push('skill.description must be 10–200 characters');

  const budget = asNumber(context.budget);
  if (budget === undefined || budget < BUDGET_RANGE.min || budget > BUDGET_RANGE.max)
    problems.push(`context.budget is required and must be ${BUDGET_RANGE.min}–${BUDGET_RANGE.max}`);
  else if (!Number.isInteger(budget)) problems.push('context.budget must be an integer');

  const standing = asNumber(context.standing);
  if (standing !== undefined) {
    if (standing < STANDING_RANGE.min || standing > STANDING_RANGE.max)
      problems.push(`context.standing must be ${STANDING_RANGE.min}–${STANDING_RANGE.max}`);
    else if (!Number.isInteger(standing)) problems.push('context.standing must be an integer');
  }

  for (const [table, key] of ARRAY_FIELDS) {
    const v = t(table)[key];
    if (v !== undefined && !Array.isArray(v)) problems.push(`${table}.${key} must be an array (got a ${typeof v})`);
  }

  const triggers = t('triggers');
  const commands = strings(triggers.commands);
  for (const c of commands) {
    if (!COMMAND_RE.test(c))
      problems.push(
        `triggers.commands "${c}" must match ${String(COMMAND_RE)} (a slash and a lowercase name — no paths)`,
      );
  }

  const disclosure = context.disclosure;
  if (typeof disclosure === 'string' && disclosure !== 'lazy' && disclosure !== 'eager') {
    problems.push(`context.disclosure "${disclosure}" must be "lazy" or "eager"`);
  }

  if (problems.length > 0) return fail('invalid-input', 'invalid manifest', { detail: problems });

  const permissions = t('permissions');
  const artifacts = t('artifacts');
  const targets = t('targets');
  const lore = t('lore');
  const deps = t('dependencies');
  const mcp = t('mcp');

  return {
    ok: true,
    value: {
      skill: {
        name,
        version,
        description,
        ...(typeof skill.license === 'string' ? { license: skill.license } : {}),
        ...(typeof skill.homepage === 'string' ? { homepage: skill.homepage } : {}),
        authors: strings(skill.authors),
      },
      context: {
        budget: budget!,
        standing: standing ?? 100,
        disclosure: disclosure === 'eager' ? 'eager' : 'lazy',
      },
      triggers: { commands, auto: strings(triggers.auto), events: strings(triggers.events) },
      permissions: {
        tools: strings(permissions.tools),
        network: permissions.network === true,
        write: permissions.write === true,
      },
      artifacts: { produces: strings(artifacts.produces), consumes: strings(artifacts.consumes) },
      targets: { requires: strings(targets.requires), mode: targets.mode === 'gate' ? 'gate' : 'skill' },
      lore: { reads: strings(lore.reads), writes: strings(lore.writes) },
      dependencies: Object.fromEntries(
        Object.entries(deps).filter((e): e is [string, string] => typeof e[1] === 'string'),
      ),
      mcp: {
        onUnsupported: mcp.on_unsupported === 'error' ? 'error' : 'warn',
        servers: readServers(mcp.servers),
      },
    },
  };
}

function readServers(v: unknown): McpServer[] {
  if (!isTable(v)) return [];
  return Object.keys(v)
    .sort(binaryCompare)
    .flatMap((name) => {
      const s = v[name];
      if (!isTable(s)) return [];
      const server: McpServer = {
        name,
        transport: typeof s.transport === 'string' ? s.transport : 'stdio',
        ...(typeof s.command === 'string' ? { command: s.command } : {}),
        args: strings(s.args),
        ...(typeof s.url === 'string' ? { url: s.url } : {}),
        env: stringMap(s.env),
        headers: stringMap(s.headers),
        tools: strings(s.tools),
        ...(asNumber(s.timeout_ms) !== undefined ? { timeoutMs: asNumber(s.timeout_ms)! } : {}),
      };
      return [server];
    });
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function stringMap(v: unknown): Record<string, string> {
  if (!isTable(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** UTF-16 code-unit order, the order the reference sorts names in. */
export function binaryCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
