import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileError, formatError, ok, type Result, type SkillsmithError } from '../../../shared/result';
import { decodeUtf8 } from '../../../shared/ksf/text';
import type { SkillTree } from '../../../shared/ksf/tree';
import { treeIntegrity } from '../../../shared/lock/integrity';
import { LOCK_FILE, parseLock, serializeLock, type LockEntry } from '../../../shared/lock/lockfile';
import type { ByteHasher } from '../../../shared/lock/sha256';
import { writeFileInside } from '../fs/inside';
import { describeFsError } from '../fs/describe-error';
import { SKILLS_DIR } from '../skills/locate';
import { readSkillTree } from '../skills/reader';

export { LOCK_FILE, type LockEntry } from '../../../shared/lock/lockfile';

/** The project's lock: `present` is false when there is no kitbash.lock at all. */
export interface LockState {
  readonly present: boolean;
  readonly entries: readonly LockEntry[];
}

const MAX_LOCK_BYTES = 8 * 1024 * 1024;

/** Read and parse `<root>/kitbash.lock`; a missing file is `{present: false, entries: []}`. */
export function readLock(root: string): Result<LockState> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, LOCK_FILE));
  } catch (e) {
    return unreadLock(e);
  }
  return parseLockBytes(bytes);
}

/**
 * Parsed lock contents remembered by the sha256 of the file's bytes (the project index):
 * a lock that hashes the same parses the same, so only a changed lock is parsed again.
 */
export interface ParsedLockCache {
  get(sha: string): readonly LockEntry[] | undefined;
  put(sha: string, entries: readonly LockEntry[]): void;
}

/** readLock through promises, parsing only a lock `cache` has not seen. */
export async function readLockAsync(root: string, cache?: ParsedLockCache): Promise<Result<LockState>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(root, LOCK_FILE));
  } catch (e) {
    return unreadLock(e);
  }
  if (!cache || bytes.length > MAX_LOCK_BYTES) return parseLockBytes(bytes);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const known = cache.get(sha);
  if (known) return { ok: true, value: { present: true, entries: known } };
  const parsed = parseLockBytes(bytes);
  if (parsed.ok) cache.put(sha, parsed.value.entries);
  return parsed;
}

/**
 * What parseLock gives back for the file serializeLock writes from `entries` — so that a
 * command that writes the lock can tell the index what it holds without parsing it —
 * or undefined for entries where that is not certain (a name missing or pinned twice, a
 * string TOML cannot hold). tests/workspace/project-index.test.ts holds the two to each other.
 */
export function parsedFormOf(entries: readonly LockEntry[]): LockEntry[] | undefined {
  const names = new Set(entries.map((e) => e.name));
  if (names.size !== entries.length || names.has('')) return undefined;
  const strings = (xs: readonly string[] | undefined) => xs === undefined || xs.every(tomlSafe);
  for (const e of entries) {
    if (![e.name, e.version, e.source, e.integrity].every(tomlSafe)) return undefined;
    if (
      [
        e.resolved,
        e.upstream,
        e.commit,
        e.digest,
        e.signedBy,
        e.signature,
        ...Object.values(e.github ?? {}),
        ...Object.values(e.plugin ?? {}),
      ].some((v) => v !== undefined && !tomlSafe(v))
    )
      return undefined;
    if (!strings(e.dependencies) || !strings(e.requested) || !strings(e.executable)) return undefined;
  }
  return [...entries]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((e) => ({
      name: e.name,
      version: e.version,
      source: e.source,
      integrity: e.integrity,
      ...(e.resolved !== undefined ? { resolved: e.resolved } : {}),
      ...(e.upstream !== undefined ? { upstream: e.upstream } : {}),
      ...(e.commit !== undefined ? { commit: e.commit } : {}),
      ...(e.digest !== undefined ? { digest: e.digest } : {}),
      ...(e.dependencies && e.dependencies.length > 0 ? { dependencies: [...e.dependencies] } : {}),
      ...(e.requested && e.requested.length > 0 ? { requested: [...e.requested] } : {}),
      ...(e.direct === false ? { direct: false } : {}),
      ...(e.executable !== undefined ? { executable: [...e.executable].sort() } : {}),
      ...(e.github && Object.keys(e.github).length ? { github: { ...e.github } } : {}),
      ...(e.plugin ? { plugin: { ...e.plugin } } : {}),
      // serializeLock writes the pair or neither.
      ...(e.signedBy !== undefined && e.signature !== undefined
        ? { signedBy: e.signedBy, signature: e.signature }
        : {}),
    }));
}

/** A string serializeLock writes so that the TOML reader gives it back (no lone surrogate). */
const tomlSafe = (s: string): boolean => typeof s === 'string' && !/\p{Cs}/u.test(s);

/** readLockAsync, a parse error thrown as its one-line message (for command code). */
export async function readLockAsyncOrThrow(root: string, cache?: ParsedLockCache): Promise<LockState> {
  const r = await readLockAsync(root, cache);
  if (!r.ok) throw new Error(formatError(r.error));
  return r.value;
}

function unreadLock(e: unknown): Result<LockState> {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: { present: false, entries: [] } };
  return { ok: false, error: fileError(LOCK_FILE, describeFsError(e)) };
}

function parseLockBytes(bytes: Buffer): Result<LockState> {
  if (bytes.length > MAX_LOCK_BYTES)
    return { ok: false, error: fileError(LOCK_FILE, 'is larger than 8 MiB — refusing to parse it') };
  const text = decodeUtf8(bytes);
  if (!text.ok) return { ok: false, error: { ...text.error, file: LOCK_FILE } };
  const parsed = parseLock(text.value.text, LOCK_FILE);
  return parsed.ok ? { ok: true, value: { present: true, entries: parsed.value } } : parsed;
}

/** Like readLock, but a parse error throws its one-line message (for command code). */
export function readLockOrThrow(root: string): LockState {
  const r = readLock(root);
  if (!r.ok) throw new Error(formatError(r.error));
  return r.value;
}

/** Write `<root>/kitbash.lock` atomically in the reference's format. */
export function writeLock(root: string, entries: readonly LockEntry[]): void {
  writeFileInside(root, LOCK_FILE, serializeLock(entries));
}

/** node:crypto behind the hasher interface the shared walk feeds. */
export function nodeHasher(): ByteHasher {
  const h = createHash('sha256');
  return { update: (d) => void h.update(d), hex: () => h.digest('hex') };
}

/** Integrity of a tree already in memory (node:crypto). */
export function treeIntegrityFast(tree: SkillTree): string {
  return treeIntegrity(tree, nodeHasher());
}

/**
 * The refusal a user reads when a skill is not what kitbash.lock pins, with the way forward.
 * One wording for every command that refuses to run an unpinned skill (`run`, `gate`, `eval`).
 */
export function pinRefusal(name: string, error: PinError): string {
  if (error.reason === 'uncovered' || error.reason === 'modes')
    return `refusing to run ${error.message} — only exactly what was pinned runs; reinstall it (and review the change)`;
  if (error.reason === 'drift')
    return `${name} drifted since it was reviewed: its files no longer match the integrity pinned in kitbash.lock — reinstall or update it (and review the change) before running it`;
  const forward =
    error.reason === 'unreadable' ? '' : "; install it with skillsmith install (or re-pin it from the app's dashboard)";
  return `${error.message} — a skill runs only when its files match the pin in kitbash.lock${forward}`;
}

/** `sha256-<hex>` of a skill folder on disk, by the reference's algorithm. */
export function skillIntegrity(dir: string): Result<string> {
  const tree = readSkillTree(dir, dir);
  return tree.ok ? { ok: true, value: treeIntegrityFast(tree.value) } : tree;
}

/** Why an installed skill is not what kitbash.lock pins; its code is `forbidden` (nothing of it may run). */
export interface PinError extends SkillsmithError {
  readonly reason: 'no-lock' | 'unpinned' | 'missing' | 'drift' | 'unreadable' | 'uncovered' | 'modes';
}

/** Verdict of checking one installed skill against its pin. */
export type PinCheck = Result<{ entry: LockEntry; integrity: string }, PinError>;

const pinFailure = (reason: PinError['reason'], message: string): { ok: false; error: PinError } => ({
  ok: false,
  error: { code: 'forbidden', reason, message },
});

/** Does `.kitbash/skills/<name>/` match its kitbash.lock pin? (Used before running a skill's scripts.) */
export function verifySkill(root: string, name: string): PinCheck {
  const lock = readLock(root);
  if (!lock.ok) return pinFailure('unreadable', formatError(lock.error));
  if (!lock.value.present) return pinFailure('no-lock', `${name}: kitbash.lock is missing — nothing is pinned`);
  const entry = lock.value.entries.find((e) => e.name === name);
  if (!entry) return pinFailure('unpinned', `${name}: installed but not pinned in kitbash.lock`);
  const hash = skillIntegrity(join(root, SKILLS_DIR, name));
  if (!hash.ok) {
    const missing = hash.error.message === 'does not exist';
    return pinFailure(
      missing ? 'missing' : 'unreadable',
      missing ? `${name}: in kitbash.lock but not installed` : formatError(hash.error),
    );
  }
  if (hash.value !== entry.integrity)
    return pinFailure('drift', `${name}: integrity drift — installed files differ from kitbash.lock`);
  const disk = walkModes(join(root, SKILLS_DIR, name));
  if (disk.uncovered.length > 0) {
    return pinFailure(
      'uncovered',
      `${name}: ${disk.uncovered.slice(0, 3).join(', ')}${disk.uncovered.length > 3 ? ' …' : ''} ${disk.uncovered.length === 1 ? 'is' : 'are'} not covered by the integrity pinned in kitbash.lock`,
    );
  }
  if (entry.executable !== undefined) {
    const pinned = new Set(entry.executable);
    const changed = [
      ...disk.executable.filter((p) => !pinned.has(p)).map((p) => `${p} became executable`),
      ...entry.executable.filter((p) => !disk.executable.includes(p)).map((p) => `${p} is no longer executable`),
      ...disk.special.map((p) => `${p} has a setuid, setgid or sticky bit`),
    ];
    if (changed.length > 0)
      return pinFailure(
        'modes',
        `${name}: file modes changed since install (${changed.slice(0, 3).join('; ')}${changed.length > 3 ? ' …' : ''})`,
      );
  }
  return ok({ entry, integrity: hash.value });
}

/**
 * What the integrity hash does not see in an installed folder: the top-level `.git` it
 * skips, and special files (FIFOs, sockets, devices) it ignores; plus the executable and
 * setuid/setgid/sticky bits, which it does not hash. Paths as the hash walks them.
 */
export function walkModes(dir: string): { uncovered: string[]; executable: string[]; special: string[] } {
  const out = { uncovered: [] as string[], executable: [] as string[], special: [] as string[] };
  const walk = (abs: string, rel: string, depth: number): void => {
    if (depth > 32) return; // readSkillTree refused deeper trees already
    for (const d of readdirSync(abs, { withFileTypes: true })) {
      const name = d.name.normalize('NFC');
      const r = rel ? `${rel}/${name}` : name;
      if (depth === 0 && name === '.git') out.uncovered.push(`${r}${d.isDirectory() ? '/' : ''}`);
      else if (d.isSymbolicLink()) continue;
      else if (d.isDirectory()) walk(join(abs, d.name), r, depth + 1);
      else if (!d.isFile()) out.uncovered.push(`${r} (a special file)`);
      else {
        const mode = lstatSync(join(abs, d.name)).mode;
        if (mode & 0o111) out.executable.push(r);
        if (mode & 0o7000) out.special.push(r);
      }
    }
  };
  walk(dir, '', 0);
  return out;
}
