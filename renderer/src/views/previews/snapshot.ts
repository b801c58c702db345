/**
 * The project as the compile snapshot has it (what the planner reads on disk), read once per
 * snapshot, with one skill's unsaved buffers laid over it. Pure (no IPC, no DOM): the live
 * previews, the matrix and the costs all start here.
 */
import { memoryView, type FailedSkill } from '../../../../shared/compile';
import { base64Bytes } from '../../base64';
import type { CompileSnapshot, SnapshotSkill } from '../../../../shared/ipc/channels/compile';
import { formatError } from '../../../../shared/result';
import { loadSkill } from '../../../../shared/ksf/load';
import type { Skill } from '../../../../shared/ksf/model';
import type { SkillTree, TreeEntry } from '../../../../shared/ksf/tree';
import { EMPTY_CONFIG, parseProjectConfig, type ProjectConfig } from '../../../../shared/project/config';
import type { ProjectFiles } from '../../../../shared/targets';

const encoder = new TextEncoder();

/** The files of the project the planner reads, as an in-memory view (folders as `dir/` keys). */
export function snapshotView(snap: CompileSnapshot): ProjectFiles {
  const files: Record<string, string | Uint8Array> = {};
  for (const d of snap.dirs) files[`${d}/`] = '';
  for (const f of snap.files) files[f.path] = f.base64 !== undefined ? base64Bytes(f.base64) : (f.text ?? '');
  return memoryView(files, snap.rootName);
}

/** Walk order of the skill reader: per-directory UTF-16 order, depth first. */
function walkOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/** A skill tree from the snapshot, with `buffers` (skill-relative path → text) laid over it. */
export function skillTree(s: SnapshotSkill, buffers?: ReadonlyMap<string, string>): SkillTree {
  const entries = new Map<string, TreeEntry>();
  for (const e of s.entries) {
    if (e.kind === 'file')
      entries.set(e.path, {
        kind: 'file',
        path: e.path,
        bytes: e.base64 !== undefined ? base64Bytes(e.base64) : encoder.encode(e.text ?? ''),
      });
    else
      entries.set(
        e.path,
        e.kind === 'dir' ? { kind: 'dir', path: e.path } : { kind: 'symlink', path: e.path, target: e.target },
      );
  }
  if (buffers) {
    for (const [path, text] of buffers) {
      entries.set(path, { kind: 'file', path, bytes: encoder.encode(text) });
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const d = parts.slice(0, i).join('/');
        if (!entries.has(d)) entries.set(d, { kind: 'dir', path: d });
      }
    }
  }
  return { root: s.display, entries: [...entries.values()].sort((a, b) => walkOrder(a.path, b.path)) };
}

export type Loaded = { ok: true; skill: Skill } | { ok: false; failure: FailedSkill };

function loadFrom(s: SnapshotSkill, buffers?: ReadonlyMap<string, string>): Loaded {
  if (s.broken !== null && !buffers) return { ok: false, failure: { name: s.dir, message: s.broken } };
  const r = loadSkill(skillTree(s, buffers));
  return r.ok
    ? { ok: true, skill: r.value }
    : {
        ok: false,
        failure: { name: s.dir, message: oneLine(formatError({ ...r.error, detail: [] }), r.error.detail) },
      };
}

function oneLine(head: string, problems: readonly string[] | undefined): string {
  return problems?.length ? `${head} — ${problems.join('; ')}` : head;
}

/**
 * Everything derived from a snapshot alone, computed once per snapshot (Skill identity keeps the planner's memo warm).
 */
export interface Base {
  readonly view: ProjectFiles;
  readonly config: { ok: true; value: ProjectConfig } | { ok: false; message: string };
  readonly loaded: ReadonlyMap<string, Loaded>;
}
const bases = new WeakMap<CompileSnapshot, Base>();

export function base(snap: CompileSnapshot): Base {
  let b = bases.get(snap);
  if (b) return b;
  let config: Base['config'];
  if (snap.configError) config = { ok: false, message: snap.configError };
  else if (snap.config === null) config = { ok: true, value: EMPTY_CONFIG };
  else {
    const c = parseProjectConfig(snap.config);
    config = c.ok ? { ok: true, value: c.value } : { ok: false, message: formatError(c.error) };
  }
  const loaded = new Map<string, Loaded>(snap.skills.map((s) => [s.dir, loadFrom(s)]));
  b = { view: snapshotView(snap), config, loaded };
  bases.set(snap, b);
  return b;
}

/**
 * The project's skills and failures, with `dir` replaced by its edited version (or added, for a new skill) — or,
 * with `files: null`, left out.
 */
export function projectSkills(
  snap: CompileSnapshot,
  edit?: { dir: string; files: ReadonlyMap<string, string> | null },
): { skills: Skill[]; failures: FailedSkill[]; edited?: Loaded } {
  const b = base(snap);
  const skills: Skill[] = [];
  const failures: FailedSkill[] = [];
  let edited: Loaded | undefined;
  const dirs = snap.skills.map((s) => s.dir);
  if (edit?.files && !dirs.includes(edit.dir)) dirs.push(edit.dir);
  for (const dir of dirs) {
    let l: Loaded;
    if (edit && dir === edit.dir) {
      if (!edit.files) continue;
      const s = snap.skills.find((x) => x.dir === dir) ?? {
        dir,
        display: `.kitbash/skills/${dir}`,
        broken: null,
        entries: [],
      };
      l = editedLoad(s, edit.files);
      edited = l;
    } else l = b.loaded.get(dir)!;
    if (l.ok) skills.push(l.skill);
    else failures.push(l.failure);
  }
  return { skills, failures, ...(edited ? { edited } : {}) };
}

/** The last edited load, reused while the buffers are the same map (a re-render without an edit). */
const editedMemo = new WeakMap<ReadonlyMap<string, string>, { s: SnapshotSkill; l: Loaded }>();
function editedLoad(s: SnapshotSkill, files: ReadonlyMap<string, string>): Loaded {
  const hit = editedMemo.get(files);
  if (hit && hit.s === s) return hit.l;
  const l = loadFrom(s, files);
  editedMemo.set(files, { s, l });
  return l;
}
