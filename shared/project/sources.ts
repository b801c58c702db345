import { isTable, type TomlTable } from '../ksf/toml';
import { fail, ok, type Result } from '../result';

/**
 * Skillsmith's additive `[sources]` table in kitbash.toml (the reference ignores it):
 * named catalogs of skill folders that dependencies are resolved from.
 *
 *   [sources]
 *   team = "file:///srv/git/skills.git"          # a git repository of skill folders
 *   vendored = "./vendor/skills"                 # a local folder of skill folders
 *   [sources.pinned]
 *   url = "https://example.com/skills.git"
 *   ref = "v2.0.0"                               # optional: a branch, tag or commit
 *   path = "skills"                              # optional: the folder inside the repository
 */
export interface Catalog {
  readonly name: string;
  /** A source string as `install` accepts it (local path, file:, or a git URL). */
  readonly source: string;
  readonly ref?: string;
  readonly path?: string;
}

export type CatalogsResult = Result<Catalog[]>;

/** Read `[sources]` from a parsed kitbash.toml (`ProjectConfig.raw`); a wrong shape is a one-line error. */
export function readCatalogs(raw: Readonly<TomlTable>): CatalogsResult {
  const t = raw.sources;
  if (t === undefined) return ok([]);
  if (!isTable(t)) return fail('invalid-input', 'kitbash.toml: [sources] must be a table of name = "source" entries');
  const catalogs: Catalog[] = [];
  for (const name of Object.keys(t).sort()) {
    const v = t[name];
    if (typeof v === 'string') {
      if (v.trim() === '')
        return fail('invalid-input', `kitbash.toml: [sources].${name} is empty — give a folder or a git URL`);
      catalogs.push({ name, source: v });
      continue;
    }
    if (isTable(v)) {
      const url = v.url ?? v.source;
      if (typeof url !== 'string' || url.trim() === '')
        return fail('invalid-input', `kitbash.toml: [sources.${name}] needs url = "<folder or git URL>"`);
      for (const k of ['ref', 'path'] as const) {
        if (v[k] !== undefined && typeof v[k] !== 'string')
          return fail('invalid-input', `kitbash.toml: [sources.${name}].${k} must be a string`);
      }
      catalogs.push({
        name,
        source: url,
        ...(typeof v.ref === 'string' ? { ref: v.ref } : {}),
        ...(typeof v.path === 'string' ? { path: v.path } : {}),
      });
      continue;
    }
    return fail(
      'invalid-input',
      `kitbash.toml: [sources].${name} must be a string (a folder or git URL) or a table with url`,
    );
  }
  return ok(catalogs);
}
