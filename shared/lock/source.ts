import { fail, ok, type Result } from '../result';
import { parseWellknownSource, wellknownSourceString } from './wellknown';

/**
 * Source syntax (install, update, diff). Pure: the caller says whether a local path
 * exists and resolves it. Git URLs carry an optional `#<ref>` and `#<ref>:<subpath>`
 * (or `#:<subpath>`) fragment — git forbids ':' in ref names, so the split is exact.
 */
export type SourceSpec =
  | { readonly kind: 'local'; readonly raw: string; readonly path: string }
  | {
      readonly kind: 'github';
      readonly raw: string;
      /** `owner/repo[/path][@ref]` as typed after an optional `gh:`. */
      readonly value: string;
      readonly owner: string;
      readonly repo: string;
      readonly subpath?: string;
      readonly ref?: string;
    }
  | {
      readonly kind: 'git';
      readonly raw: string;
      readonly url: string;
      readonly subpath?: string;
      readonly ref?: string;
    }
  | {
      /** An Agent Skills discovery index over HTTPS (SPEC D320): `index` its URL, `skill` the one picked. */
      readonly kind: 'wellknown';
      readonly raw: string;
      readonly index: string;
      readonly skill?: string;
    };

export type SourceParse = Result<SourceSpec>;

const GH_RE = /^([^/@]+)\/([^/@]+)(?:\/([^@]+))?(?:@(.+))?$/;
const GIT_URL_RE = /^(?:https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|git@[^:]+:)/;
const SHORTHAND_RE = /^[\w.-]+\/[\w.-]+/;

/**
 * Classify a source the way the reference does (gh:, file:, an existing path, then
 * `owner/repo`), plus any git URL. `exists` answers for a path relative to the cwd.
 */
export function parseSource(raw: string, exists: (path: string) => boolean): SourceParse {
  if (raw.trim() === '') return fail('invalid-input', 'empty source');
  if (raw.startsWith('gh:')) return github(raw, raw.slice(3));
  // Before the git rule: an index URL is an https URL, and `wellknown:` a prefix no git URL has.
  const wellknown = parseWellknownSource(raw);
  if (wellknown) return wellknown.ok ? ok({ kind: 'wellknown', raw, ...wellknown.value }) : wellknown;
  if (GIT_URL_RE.test(raw)) return gitUrl(raw);
  if (raw.startsWith('file:')) return ok({ kind: 'local', raw, path: raw.slice(5) });
  if (exists(raw)) return ok({ kind: 'local', raw, path: raw });
  if (SHORTHAND_RE.test(raw) && !raw.startsWith('.')) return github(raw, raw);
  return ok({ kind: 'local', raw, path: raw });
}

function github(raw: string, value: string): SourceParse {
  const m = GH_RE.exec(value);
  if (!m)
    return fail(
      'invalid-input',
      `invalid source "${raw}" — expected gh:owner/repo, owner/repo, owner/repo/path/to/skill, or owner/repo@ref`,
    );
  return ok({
    kind: 'github',
    raw,
    value,
    owner: m[1]!,
    repo: m[2]!,
    ...(m[3] ? { subpath: m[3] } : {}),
    ...(m[4] ? { ref: m[4] } : {}),
  });
}

function gitUrl(raw: string): SourceParse {
  const hash = raw.indexOf('#');
  const url = hash === -1 ? raw : raw.slice(0, hash);
  const fragment = hash === -1 ? '' : raw.slice(hash + 1);
  const colon = fragment.indexOf(':');
  const ref = colon === -1 ? fragment : fragment.slice(0, colon);
  const subpath = colon === -1 ? '' : fragment.slice(colon + 1);
  if (url.length < 8)
    return fail(
      'invalid-input',
      `invalid source "${raw}" — expected a git URL such as https://host/owner/repo.git[#ref][:path]`,
    );
  return ok({ kind: 'git', raw, url, ...(ref ? { ref } : {}), ...(subpath ? { subpath } : {}) });
}

/**
 * The form `[policy].allow_sources` is matched against: `gh:<value>`, `file:<absolute>`
 * (the caller passes the resolved path), or the git URL with its fragment.
 */
export function canonicalSource(spec: SourceSpec, absolutePath?: string): string {
  switch (spec.kind) {
    case 'github':
      return `gh:${spec.value}`;
    case 'local':
      return `file:${absolutePath ?? spec.path}`;
    case 'git':
      return gitSourceString(spec.url, spec.ref, spec.subpath);
    case 'wellknown':
      return wellknownSourceString(spec.index, spec.skill);
  }
}

/** A git source string in Skillsmith's syntax: `<url>[#<ref>][:<subpath>]`. */
export function gitSourceString(url: string, ref?: string, subpath?: string): string {
  if (!ref && !subpath) return url;
  return `${url}#${ref ?? ''}${subpath ? `:${subpath}` : ''}`;
}

/** Where a GitHub source clones from (tests point the base at local bare repositories). */
export function githubCloneUrl(owner: string, repo: string, base = 'https://github.com'): string {
  return `${base.replace(/\/+$/, '')}/${owner}/${repo}.git`;
}

/**
 * The source string for the folder `rel` inside an opened source (a skill of a multi-skill
 * repository): same repository and ref, the subpath extended. `localPath` is the absolute
 * folder a local source opened to.
 */
export function sourceAt(spec: SourceSpec, rel: string, localPath?: string): string {
  const sub = [spec.kind === 'local' || spec.kind === 'wellknown' ? '' : (spec.subpath ?? ''), rel]
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/');
  switch (spec.kind) {
    case 'github':
      return `gh:${spec.owner}/${spec.repo}${sub ? `/${sub}` : ''}${spec.ref ? `@${spec.ref}` : ''}`;
    case 'git':
      return gitSourceString(spec.url, spec.ref, sub || undefined);
    case 'local':
      return `file:${(localPath ?? spec.path).replace(/\/+$/, '')}${sub ? `/${sub}` : ''}`;
    case 'wellknown':
      // An index is flat: the folder of a skill is its name.
      return wellknownSourceString(spec.index, rel.replace(/^\/+|\/+$/g, '') || spec.skill);
  }
}
