import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Skill } from '../../../shared/ksf/model';
import { CHECK_IDS, type Check } from '../../../shared/lint/types';
import { writeFileAtomic } from '../fs/atomic';
import { defaultCacheDir, engineStamp } from '../skills/cache';

/*
 * The delivery checks cache (SPEC D281): the failing checks of each skill compile judged,
 * keyed by a SHA-256 of every byte, path, kind and execute bit of the skill's folder as read,
 * where it is shown, and the engine that judged it. Compile decides whether a skill may be
 * delivered from its failing checks and the project's [policy] (shared/compile/deliver.ts);
 * the checks are a function of the folder alone, so a skill no change touched is not linted
 * again — in this project, in a copy of it, or in a clone. Only the verdict over them (pins,
 * policy, exceptions) is made anew every time.
 *
 * One file in the user's cache folder, never inside a project: a project could otherwise ship
 * a "no findings" answer for a skill that pipes curl into sh. An entry whose text is not a
 * list of known checks is ignored and the skill linted; the file is replaced atomically, the
 * last writer winning, so two compiles at once never tear it.
 */

const FORMAT = 'skillsmith-delivery-checks';
const FORMAT_VERSION = 1;
/** Entries kept; those used by the last compile come first. */
const MAX_ENTRIES = 20_000;
const KNOWN = new Set<string>(CHECK_IDS);

export interface DeliveryChecks {
  /** The failing checks of `skill`: from the cache, else `lint(skill)` (and remembered). */
  of(skill: Skill, lint: (skill: Skill) => readonly Check[]): readonly Check[];
  /** The tree integrity of `skill` (what kitbash.lock pins): from the cache, else `hash(tree)` (and remembered). */
  integrity(skill: Skill, hash: (tree: Skill['tree']) => string): string;
  /** Writes the file when something was computed; never throws. */
  save(): void;
}

/** What is known of one folder's content: its failing checks, its integrity. */
interface Entry {
  readonly c?: readonly Check[];
  readonly i?: string;
}

interface CacheFile {
  readonly format: string;
  readonly version: number;
  readonly engine: string;
  readonly entries: Record<string, Entry>;
}

/** The cache in `dir` judged by `engine`; none (every skill linted) when there is no build to key it by. */
export function openDeliveryChecks(
  where: { dir: string; engine: string | undefined } = { dir: defaultCacheDir(), engine: engineStamp() },
): DeliveryChecks | undefined {
  const { dir, engine } = where;
  if (engine === undefined) return undefined;
  const file = join(dir, 'delivery', 'checks.json');
  const known = new Map<string, Entry>();
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile>;
    if (
      parsed.format === FORMAT &&
      parsed.version === FORMAT_VERSION &&
      parsed.engine === engine &&
      parsed.entries &&
      typeof parsed.entries === 'object'
    )
      for (const [k, v] of Object.entries(parsed.entries)) {
        const e = validEntry(v);
        if (e) known.set(k, e);
      }
  } catch {
    // no file, or one that is not ours: every skill is judged and the file rewritten
  }
  const used = new Map<string, Entry>();
  // One content hash per loaded skill, however many questions are asked about it.
  const keys = new WeakMap<Skill, string>();
  const keyOf = (skill: Skill): string => {
    let k = keys.get(skill);
    if (k === undefined) keys.set(skill, (k = contentKey(engine, skill)));
    return k;
  };
  let computed = false;
  const entry = (key: string): Entry => used.get(key) ?? known.get(key) ?? {};
  return {
    of(skill, lint) {
      const key = keyOf(skill);
      const e = entry(key);
      let checks = e.c;
      if (!checks) {
        checks = lint(skill).filter((c) => c.status === 'fail');
        computed = true;
      }
      used.set(key, { ...e, c: checks });
      return checks;
    },
    integrity(skill, hash) {
      const key = keyOf(skill);
      const e = entry(key);
      let i = e.i;
      if (i === undefined) {
        i = hash(skill.tree);
        computed = true;
      }
      used.set(key, { ...e, i });
      return i;
    },
    save() {
      if (!computed) return;
      const entries: Record<string, Entry> = {};
      let n = 0;
      for (const [k, v] of [...used, ...known]) {
        if (n >= MAX_ENTRIES) break;
        if (k in entries) continue;
        entries[k] = v;
        n++;
      }
      try {
        const body: CacheFile = { format: FORMAT, version: FORMAT_VERSION, engine, entries };
        writeFileAtomic(file, JSON.stringify(body));
        computed = false;
      } catch {
        // a cache that cannot be written only costs the next compile its speed
      }
    },
  };
}

/** Everything lintSkill reads of a skill: its folder (bytes, paths, kinds, modes, links) and where it is shown. */
function contentKey(engine: string, skill: Skill): string {
  const h = createHash('sha256');
  const put = (s: string): void => void h.update(`${s.length}:${s}`);
  put(engine);
  put(skill.tree.root);
  for (const e of skill.tree.entries) {
    put(`${e.kind}\0${e.path}`);
    if (e.kind === 'file') {
      put(e.executable ? 'x' : '-');
      put(String(e.bytes.length));
      h.update(e.bytes);
    } else if (e.kind === 'symlink') put(e.target);
  }
  return h.digest('hex');
}

/** An entry as stored: a list of known failing checks and an integrity, each optional; anything else is dropped. */
function validEntry(v: unknown): Entry | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { c, i } = v as { c?: unknown; i?: unknown };
  if (c !== undefined && !isChecks(c)) return undefined;
  if (i !== undefined && (typeof i !== 'string' || !INTEGRITY.test(i))) return undefined;
  return { ...(c !== undefined ? { c } : {}), ...(i !== undefined ? { i } : {}) };
}

const INTEGRITY = /^sha256-[A-Za-z0-9+/=_-]+$/;

function isChecks(v: unknown): v is readonly Check[] {
  return (
    Array.isArray(v) &&
    v.every(
      (c) =>
        typeof c === 'object' &&
        c !== null &&
        KNOWN.has((c as Check).id) &&
        (c as Check).status === 'fail' &&
        ((c as Check).detail === undefined || typeof (c as Check).detail === 'string') &&
        ((c as Check).locations === undefined || Array.isArray((c as Check).locations)),
    )
  );
}
