/** One scan's reads of the installed folders: each folder read, loaded and hashed once, all answers from that read. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanProject } from '../../main/services/dashboard/scan';
import { ENGINES } from '../../main/services/dashboard/adapters';
import type { DashboardEngines } from '../../main/services/dashboard/engines';
import { folderReadsOnce, READ_EACH_TIME, type FolderReads } from '../../main/services/skills/folder-reads';
import { scratch, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

const skill = (name: string) => join(s.project, '.kitbash', 'skills', name);

describe('folderReadsOnce', () => {
  it('answers a folder from its first read for the rest of the pass; the default reads it again', () => {
    const reads = folderReadsOnce();
    const first = reads.tree(skill('prereview'), '.kitbash/skills/prereview');
    appendFileSync(join(skill('prereview'), 'SKILL.md'), '\nOne more line.\n');
    const again = reads.tree(skill('prereview'), '.kitbash/skills/prereview');
    expect(again).toBe(first);
    const fresh = READ_EACH_TIME.tree(skill('prereview'), '.kitbash/skills/prereview');
    expect(fresh.ok && first.ok).toBe(true);
    if (!fresh.ok || !first.ok) return;
    expect(READ_EACH_TIME.integrity(fresh.value)).not.toBe(reads.integrity(first.value));
    // Loaded once per name hint: the same Skill object, so the planner's per-skill memos hold across the pass.
    expect(reads.skill(first.value, 'prereview')).toBe(reads.skill(first.value, 'prereview'));
    expect(reads.skill(first.value)).not.toBe(reads.skill(first.value, 'prereview'));
  });

  it('a dashboard scan reads each installed folder once, for its rows, the status and the listing alike', () => {
    const asked = new Map<string, number>();
    const answers = new Map<string, Set<unknown>>();
    const counting: DashboardEngines = (root, config, reads) => {
      expect(reads).toBeDefined();
      const inner = reads!;
      const tally: FolderReads = {
        tree: (abs, display) => {
          asked.set(display, (asked.get(display) ?? 0) + 1);
          const tree = inner.tree(abs, display);
          answers.set(display, (answers.get(display) ?? new Set()).add(tree));
          return tree;
        },
        skill: (tree, hint) => inner.skill(tree, hint),
        integrity: (tree) => inner.integrity(tree),
      };
      return ENGINES(root, config, tally);
    };
    const d = scanProject(s.project, counting);
    expect(d.skills).toHaveLength(5);
    // The engines asked for every folder (status and listing), and got the scan's one read each time.
    expect([...asked.keys()].sort()).toEqual(d.skills.map((r) => `.kitbash/skills/${r.dir}`).sort());
    expect(Math.min(...asked.values())).toBeGreaterThanOrEqual(2);
    expect([...answers.values()].every((a) => a.size === 1)).toBe(true);
    expect(scanProject(s.project)).toMatchObject({ skills: d.skills, totals: d.totals, problems: d.problems });
  });
});
