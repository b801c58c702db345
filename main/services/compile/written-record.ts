import { createHash } from 'node:crypto';
import type { CompilePlan } from '../../../shared/compile/plan';
import type { OwnedFile, WrittenOutputs } from '../../../shared/compile/written';
import { openProjectDir, readFileIn, removeIn, replaceFileIn } from '../fs/inside';
import { engine, openCacheDir, readCacheJson, RECORD_DIR } from './recorded';

/*
 * What the last applied plan left on disk of each skill's own files (SPEC D274): path →
 * skill and a SHA-256 of the execute bit and bytes, in `.kitbash/cache/written.json`. Keyed
 * by content, not by stamps, so it holds in a copy of the project. It is dropped before a
 * plan's writes start and written once they are all done, so a write cut short leaves no
 * record, and the next change plans every skill in full.
 */

const NAME = 'written.json';
const FORMAT = 1;

interface WrittenFile {
  readonly format: number;
  readonly engine: string;
  /** path → [skill, hash]. */
  readonly files: Record<string, [string, string]>;
}

function hashOf(content: string | Uint8Array, executable: boolean): string {
  return createHash('sha256')
    .update(executable ? 'x' : '-')
    .update(content)
    .digest('base64');
}

/** The record of `root` as the plan of a change trusts it; undefined when missing, corrupt or another engine's. */
export function readWritten(root: string): WrittenOutputs | undefined {
  const rec = readCacheJson(root, NAME) as WrittenFile | undefined;
  if (rec?.format !== FORMAT || rec.engine !== engine() || typeof rec.files !== 'object' || rec.files === null)
    return undefined;
  const bySkill = new Map<string, Map<string, string>>();
  for (const [path, e] of Object.entries(rec.files)) {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'string') return undefined;
    let m = bySkill.get(e[0]);
    if (!m) bySkill.set(e[0], (m = new Map()));
    m.set(path, e[1]);
  }
  return {
    holds(skill: string, files: readonly OwnedFile[]): boolean {
      const m = bySkill.get(skill);
      return (
        m !== undefined &&
        m.size === files.length &&
        files.every((f) => m.get(f.path) === hashOf(f.content, f.executable))
      );
    },
  };
}

/** Drop the record before a plan's writes: until they are all done, it would claim what may no longer be there. */
export function dropWritten(root: string): void {
  try {
    const dir = openProjectDir(root, RECORD_DIR);
    try {
      removeIn(dir, NAME);
    } finally {
      dir.close();
    }
  } catch {
    // no cache folder: no record
  }
}

/**
 * Record each skill's own files of `plan`, once it is applied: what it wrote, and what it
 * found (or, planned from the record, took) to be in step. A hand-written file in the way is
 * not among them, nor a failed skill's kept output. A cache folder that cannot be written is
 * not an error: the next change plans in full.
 */
export function recordWritten(root: string, plan: CompilePlan): void {
  const files: Record<string, [string, string]> = {};
  for (const f of plan.write)
    if (f.skill !== undefined) files[f.path] = [f.skill, hashOf(f.content, f.executable === true)];
  const text = `${JSON.stringify({ format: FORMAT, engine: engine(), files } satisfies WrittenFile)}\n`;
  try {
    const dir = openCacheDir(root);
    try {
      if (readFileIn(dir, NAME)?.toString('utf8') !== text) replaceFileIn(dir, NAME, text);
    } finally {
      dir.close();
    }
  } catch {
    // not writable: only slower
  }
}
