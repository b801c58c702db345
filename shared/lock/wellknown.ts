import { fail, fileError, ok, type Result } from '../result';
import { isAgentSkillsName } from '../names';

/**
 * The Agent Skills Discovery index (RFC v0.2.0, cloudflare/agent-skills-discovery-rfc) as an
 * install source (SPEC D320). Pure: the syntax of a `wellknown:` source and the reading of an
 * index's text; main/ fetches, verifies the digests and unpacks.
 */

/** Where RFC 8615 puts the index under a host (or under a site's base path). */
export const WELLKNOWN_INDEX_PATH = '/.well-known/agent-skills/index.json';
/** The one `$schema` this reader knows; any other index is refused, as the RFC asks. */
export const WELLKNOWN_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const WELLKNOWN_PREFIX = 'wellknown:';
/** The RFC's description limit (the Agent Skills spec's). */
const DESCRIPTION_MAX = 1024;
const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;
const URL_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]+)([^?#]*)(\?[^#]*)?(?:#(.*))?$/;

export interface WellknownSource {
  /** The index's full https URL. */
  readonly index: string;
  /** The one skill the source names (`#name`); absent: the whole index, to list and pick from. */
  readonly skill?: string;
}

/**
 * Whether `raw` names a discovery index: `wellknown:<https URL>` (a host, or the full index
 * URL), or any URL whose path ends in the well-known index path — never a git repository's.
 * A fragment names one skill. `undefined`: not an index source (the git and path rules apply).
 */
export function parseWellknownSource(raw: string): Result<WellknownSource> | undefined {
  const prefixed = raw.startsWith(WELLKNOWN_PREFIX);
  const rest = prefixed ? raw.slice(WELLKNOWN_PREFIX.length) : raw;
  const m = URL_RE.exec(rest);
  if (!m) {
    if (!prefixed) return undefined;
    return fail('invalid-input', `invalid source "${raw}" — expected wellknown:https://host or the index's https URL`);
  }
  const [, scheme, authority, path = '', query = '', fragment] = m;
  const isIndexPath = path.endsWith(WELLKNOWN_INDEX_PATH);
  if (!prefixed && !isIndexPath) return undefined;
  if (scheme!.toLowerCase() !== 'https')
    return fail(
      'invalid-input',
      `${raw}: a well-known skills index is fetched over HTTPS only — use https://${authority}${path}`,
    );
  if (!isIndexPath && path !== '' && path !== '/')
    return fail(
      'invalid-input',
      `invalid source "${raw}" — give the host (wellknown:https://${authority}) or the full index URL ending in ${WELLKNOWN_INDEX_PATH}`,
    );
  const index = `https://${authority}${isIndexPath ? path : WELLKNOWN_INDEX_PATH}${query}`;
  if (fragment !== undefined && fragment !== '' && !isAgentSkillsName(fragment))
    return fail('invalid-input', `invalid source "${raw}" — "#${fragment}" is not a skill name`);
  return ok({ index, ...(fragment ? { skill: fragment } : {}) });
}

/** The source string that installs `skill` of the index at `index` (what the lock pins). */
export function wellknownSourceString(index: string, skill?: string): string {
  return `${WELLKNOWN_PREFIX}${index}${skill ? `#${skill}` : ''}`;
}

export interface IndexEntry {
  readonly name: string;
  readonly type: 'skill-md' | 'archive';
  readonly description: string;
  /** As the index gives it: absolute, path-absolute or relative to the index URL. */
  readonly url: string;
  /** `sha256:<64 hex>` of the artifact's raw bytes. */
  readonly digest: string;
  /** Set when the entry cannot be installed (listed, never fetched). */
  readonly problem?: string;
}

export interface ParsedIndex {
  readonly entries: readonly IndexEntry[];
  /** Entries left out (an unknown `type`), one line each. */
  readonly skipped: readonly string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Read an index. The document must be a v0.2.0 index; an entry that breaks the RFC's rules
 * (name, description, url, digest) is kept with its problem, so it is listed and refused
 * rather than silently missing; an entry of an unknown `type` is skipped, as the RFC says.
 */
export function parseIndex(text: string, file: string): Result<ParsedIndex> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: fileError(file, `is not JSON: ${e instanceof Error ? e.message : String(e)}`) };
  }
  if (!isRecord(doc)) return { ok: false, error: fileError(file, 'is not a JSON object') };
  const schema = doc.$schema;
  if (schema === undefined)
    return {
      ok: false,
      error: fileError(
        file,
        `has no "$schema", so it is a v0.1.0 index, whose skills carry no digest — Skillsmith installs only digest-verified skills (${WELLKNOWN_SCHEMA})`,
      ),
    };
  if (schema !== WELLKNOWN_SCHEMA)
    return {
      ok: false,
      error: fileError(
        file,
        `"$schema" is ${JSON.stringify(schema)}, not a discovery index version Skillsmith knows (${WELLKNOWN_SCHEMA})`,
      ),
    };
  if (!Array.isArray(doc.skills)) return { ok: false, error: fileError(file, '"skills" is not an array') };
  const entries: IndexEntry[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  doc.skills.forEach((raw: unknown, i: number) => {
    const e = isRecord(raw) ? raw : {};
    const str = (k: string): string => (typeof e[k] === 'string' ? (e[k] as string) : '');
    const name = str('name') || `skills[${i}]`;
    if (e.type !== 'skill-md' && e.type !== 'archive') {
      skipped.push(`${name}: type ${JSON.stringify(e.type ?? null)} is not skill-md or archive — skipped`);
      return;
    }
    const problem = entryProblem(e, seen);
    if (isAgentSkillsName(name)) seen.add(name);
    entries.push({
      name,
      type: e.type,
      description: str('description'),
      url: str('url'),
      digest: str('digest'),
      ...(problem ? { problem } : {}),
    });
  });
  return ok({ entries, skipped });
}

function entryProblem(e: Record<string, unknown>, seen: ReadonlySet<string>): string | undefined {
  const name = e.name;
  if (typeof name !== 'string' || !isAgentSkillsName(name))
    return `the index names it ${JSON.stringify(name ?? null)}, not an Agent Skills name (a-z, 0-9, single hyphens, at most 64 characters)`;
  if (seen.has(name)) return `the index lists ${name} twice`;
  if (typeof e.description !== 'string' || e.description.trim() === '') return 'the index gives it no description';
  if (e.description.length > DESCRIPTION_MAX)
    return `its description is longer than ${DESCRIPTION_MAX} characters (${e.description.length})`;
  if (typeof e.url !== 'string' || e.url.trim() === '') return 'the index gives it no url';
  if (typeof e.digest !== 'string' || !DIGEST_RE.test(e.digest))
    return `its digest ${JSON.stringify(e.digest ?? null)} is not sha256:<64 lower-case hex digits>`;
  return undefined;
}
