import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { planCompile } from '../../../shared/compile/plan';
import type { CompileSnapshot, SnapshotEntry, SnapshotFile } from '../../../shared/ipc/channels/compile';
import { formatError } from '../../../shared/result';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { CONFIG_FILE, EMPTY_CONFIG } from '../../../shared/project/config';
import { standingTotals } from '../../../shared/targets/cost';
import { compatibilityMatrix } from '../../../shared/targets/matrix';
import { prepareSkill } from '../../../shared/targets/prepare';
import { TARGETS } from '../../../shared/targets/registry';
import type { PreparedSkill, ProjectFiles } from '../../../shared/targets/types';
import { readProjectConfig } from '../project/config';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { loadInstalled } from './load';
import { diskProject } from './project-files';

/** Bounds of a snapshot: it crosses IPC on every open of the previews. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_TOTAL_BYTES = 48 * 1024 * 1024;

/** A view that remembers every answer it gave, so the renderer can replay them. */
function recording(view: ProjectFiles): {
  view: ProjectFiles;
  bytes: Map<string, Uint8Array | undefined>;
  dirs: Set<string>;
} {
  const bytes = new Map<string, Uint8Array | undefined>();
  const dirs = new Set<string>();
  const remember = (p: string): void => {
    if (!bytes.has(p)) bytes.set(p, view.readBytes?.(p));
  };
  return {
    bytes,
    dirs,
    view: {
      rootName: view.rootName,
      exists: (p) => {
        const e = view.exists(p);
        if (e) {
          remember(p);
          if (bytes.get(p) === undefined) dirs.add(p);
        }
        return e;
      },
      read: (p) => {
        remember(p);
        return view.read(p);
      },
      readBytes: (p) => {
        remember(p);
        return view.readBytes?.(p);
      },
      list: (d) => {
        const entries = view.list(d);
        if (entries.length) dirs.add(d);
        for (const e of entries) if (e.kind === 'dir') dirs.add(`${d}/${e.name}`);
        return entries;
      },
    },
  };
}

function encode(path: string, b: Uint8Array): SnapshotFile {
  const d = decodeUtf8(b);
  return d.ok ? { path, text: d.value.text } : { path, base64: Buffer.from(b).toString('base64') };
}

/** Everything the pure planner reads for this project, as data. */
export function compileSnapshot(root: string): CompileSnapshot {
  const omitted: string[] = [];
  let total = 0;
  const take = (path: string, n: number): boolean => {
    if (n > MAX_FILE_BYTES || total + n > MAX_TOTAL_BYTES) {
      omitted.push(path);
      return false;
    }
    total += n;
    return true;
  };

  let config: string | null = null;
  let configError: string | null = null;
  try {
    const st = statSync(join(root, CONFIG_FILE));
    if (st.size > 1024 * 1024) configError = `${CONFIG_FILE}: is larger than 1 MiB — refusing to parse it`;
    else {
      const d = decodeUtf8(readFileSync(join(root, CONFIG_FILE)));
      if (d.ok) config = d.value.text;
      else configError = `${CONFIG_FILE}: not valid UTF-8`;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') configError = `${CONFIG_FILE}: ${(e as Error).message}`;
  }

  const skills: CompileSnapshot['skills'] = [];
  for (const loc of installedSkills(root)) {
    if (loc.kind === 'broken') {
      skills.push({ dir: loc.nameHint, display: loc.display, broken: loc.problem, entries: [] });
      continue;
    }
    const tree = readSkillTree(loc.abs, loc.display);
    if (!tree.ok) {
      skills.push({ dir: loc.nameHint, display: loc.display, broken: formatError(tree.error), entries: [] });
      continue;
    }
    const entries: SnapshotEntry[] = [];
    for (const e of tree.value.entries) {
      if (e.kind !== 'file') entries.push(e);
      else if (take(`${loc.display}/${e.path}`, e.bytes.length))
        entries.push({ kind: 'file', ...encode(e.path, e.bytes) });
    }
    skills.push({ dir: loc.nameHint, display: loc.display, broken: null, entries });
  }

  // Plan (and price, and grade) once against a recording view of the disk: what it read is what the renderer needs.
  const rec = recording(diskProject(root));
  const parsed = readProjectConfig(root);
  const { skills: loaded, failures } = loadInstalled(root);
  planCompile({ skills: loaded, failures, config: parsed.ok ? parsed.value : EMPTY_CONFIG, project: rec.view });
  compatibilityMatrix(loaded, TARGETS, rec.view);
  const prepared = loaded.flatMap((s): PreparedSkill[] => {
    const p = prepareSkill(s);
    return p.ok ? [p.value] : [];
  });
  standingTotals(prepared, TARGETS, rec.view);
  for (const t of TARGETS) for (const m of t.markers) rec.view.exists(m);

  const files: SnapshotFile[] = [];
  for (const [path, b] of [...rec.bytes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (b === undefined || !take(path, b.length)) continue;
    files.push(encode(path, b));
  }
  return {
    rootName: rec.view.rootName,
    config,
    configError,
    skills,
    files,
    dirs: [...rec.dirs].sort(),
    omitted,
    takenAt: new Date().toISOString(),
  };
}
