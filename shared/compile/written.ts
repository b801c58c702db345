/**
 * What the last applied compile wrote of each skill's own files (SPEC D274), as the plan of a
 * change (install, update, remove) may trust it: a skill whose own files would be written
 * exactly as recorded is taken to be in step on disk, and its files are neither read,
 * compared, checked for hand-written ones nor walked for pruning.
 */

/** One owned file the plan would write, as the record hashes it. */
export interface OwnedFile {
  readonly path: string;
  readonly content: string | Uint8Array;
  readonly executable: boolean;
}

export interface WrittenOutputs {
  /** True when the record holds exactly `files` for `skill`: the same paths, bytes and execute bits, no other. */
  holds(skill: string, files: readonly OwnedFile[]): boolean;
}

/** The plan's gathered files, as far as this step needs them. */
interface Gathered {
  readonly content: string | Uint8Array;
  readonly skill?: string;
  readonly merge?: string;
  readonly executable?: true;
}

/**
 * The skills among `names` whose own files in `files` the record holds exactly. A path two
 * skills write belongs to the one that won it, so a clash changes the loser's set and it is
 * planned in full.
 */
export function trustedSkills(
  names: readonly string[],
  files: ReadonlyMap<string, Gathered>,
  written: WrittenOutputs | undefined,
): ReadonlySet<string> {
  const trusted = new Set<string>();
  if (!written) return trusted;
  const owned = new Map<string, OwnedFile[]>(names.map((n) => [n, []]));
  for (const [path, f] of files) {
    if (f.skill === undefined || f.merge) continue;
    owned.get(f.skill)?.push({ path, content: f.content, executable: f.executable === true });
  }
  for (const [name, list] of owned) if (list.length && written.holds(name, list)) trusted.add(name);
  return trusted;
}
