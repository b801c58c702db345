import { fail, ok, type Result } from '../result';

/** What picking reads of a listed skill. */
export interface Pickable {
  readonly name: string;
  readonly rel: string;
  /** Set when the folder does not load as a skill: picked, it is refused with this reason. */
  readonly problem?: string;
}

export interface Refusal {
  readonly name: string;
  readonly why: string;
}

export interface Picked<T> {
  /** Loadable skills picked, in listing order, each once. */
  readonly picks: T[];
  /** Picked skills that cannot be installed, each with why. */
  readonly refused: Refusal[];
}

const GLOB = /[*?[]/;
const NAMES_SHOWN = 20;

/** A shell-style pattern (`*`, `?`, `[abc]`) as an anchored regular expression; undefined when malformed. */
function globRe(pattern: string): RegExp | undefined {
  let re = '';
  for (const ch of pattern) {
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[' || ch === ']') re += ch;
    else re += ch.replace(/[.+^${}()|\\/-]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return undefined;
  }
}

const under = (rel: string, base: string): boolean => base === '' || rel === base || rel.startsWith(`${base}/`);

function names(skills: readonly Pickable[]): string {
  const shown = skills.slice(0, NAMES_SHOWN).map((s) => s.name);
  const more = skills.length - shown.length;
  return `${shown.join(', ') || 'none'}${more > 0 ? `, and ${more} more` : ''}`;
}

/**
 * The skills `patterns` pick from a listing (`'all'`: every one). A pattern is a skill name,
 * a folder path or its last segment, a collection's name (its members), or a glob over the
 * names. A pattern that picks nothing is an `invalid-request` failure; a picked skill that
 * does not load is refused, not fatal, so one broken folder never stops a batch.
 */
export function pickSkills<T extends Pickable>(
  skills: readonly T[],
  collections: readonly { readonly name: string; readonly rel: string }[],
  patterns: readonly string[] | 'all',
): Result<Picked<T>> {
  const chosen = new Set<T>();
  if (patterns === 'all') for (const s of skills) chosen.add(s);
  else
    for (const p of new Set(patterns)) {
      const re = GLOB.test(p) ? globRe(p) : undefined;
      if (GLOB.test(p) && re === undefined)
        return fail('invalid-request', `--skill "${p}": not a pattern (an unclosed [ ?)`);
      let hits = re
        ? skills.filter((s) => re.test(s.name) || re.test(s.rel))
        : skills.filter((s) => s.name === p || (p !== '' && s.rel === p.replace(/^\.\/|\/+$/g, '')));
      if (hits.length === 0 && !re) {
        const c = collections.find((x) => x.name === p);
        hits = c ? skills.filter((s) => under(s.rel, c.rel)) : skills.filter((s) => s.rel.split('/').pop() === p);
      }
      if (hits.length === 0)
        return fail('invalid-request', `no skill named "${p}" in this source (it has: ${names(skills)})`);
      for (const h of hits) chosen.add(h);
    }
  const inOrder = skills.filter((s) => chosen.has(s));
  return ok({
    picks: inOrder.filter((s) => s.problem === undefined),
    refused: inOrder.flatMap((s) => (s.problem !== undefined ? [{ name: s.name, why: s.problem }] : [])),
  });
}
