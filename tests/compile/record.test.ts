/**
 * The compile record (SPEC D135) and the batch writer (D136): a compile with nothing to do
 * answers from the record, and the record never makes a compile skip a write it needs —
 * whatever the plan read, changed by hand (size and mtime put back included), sends the
 * compile the full way; an edit made while a compile runs is never recorded as seen.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readdirSync,
  lstatSync,
  lutimesSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, CompileRecorder, planProject, recordedReport, type Applied } from '../../main/services/compile';
import { writeFilesInside } from '../../main/services/compile/batch-write';
import { canFlushFileSystems, flushFileSystems } from '../../main/services/fs/flush';
import { openProjectDirs } from '../../main/services/fs/inside';
import { cleanSkill, cleanup, cli, requireBuiltCli, tempProject, writeFiles } from '../cli/helpers';

beforeAll(() => requireBuiltCli());
afterAll(() => cleanup());

const RECORD = '.kitbash/cache/compile-record.json';

/** Three skills (one with a delivered script), four agent folders and a hand-written AGENTS.md. */
function project(): string {
  const root = tempProject('skillsmith-record-');
  cleanSkill(root, '.kitbash/skills/alpha', 'alpha');
  cleanSkill(root, '.kitbash/skills/beta', 'beta');
  cleanSkill(root, '.kitbash/skills/tool', 'tool', { 'scripts/run.sh': '#!/bin/sh\necho run\n' });
  chmodSync(join(root, '.kitbash/skills/tool/scripts/run.sh'), 0o755);
  writeFiles(root, { '.claude/.keep': '', '.cursor/.keep': '', '.agents/.keep': '', 'AGENTS.md': '# Mine\n' });
  return root;
}

/**
 * What the CLI does: plan with the recorder, apply, record (not durable: scratch projects);
 * `meanwhile` edits the project between the steps, as a user could while it runs.
 */
async function compileRecorded(
  root: string,
  meanwhile: { afterPlan?: () => void; afterApply?: () => void } = {},
): Promise<{ applied: Applied; recorded: boolean }> {
  const recorder = CompileRecorder.start(root)!;
  try {
    const plan = recorder.plan();
    meanwhile.afterPlan?.();
    const applied = await applyPlan(root, plan, { durable: false, written: recorder.written });
    meanwhile.afterApply?.();
    return { applied, recorded: await recorder.finish(plan, applied) };
  } finally {
    recorder.abandon();
  }
}

const ident = (p: string) => {
  const st = statSync(p);
  return { ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
};

describe('the compile record', () => {
  it('is written by a complete compile, and reports the plan a full compile makes', async () => {
    const root = project();
    const { applied, recorded } = await compileRecorded(root);
    expect(applied.written.length).toBeGreaterThan(5);
    expect(recorded).toBe(true);
    const full = planProject(root);
    expect(full.write.concat(full.merge).every((f) => !f.changed)).toBe(true);
    expect(recordedReport(root)).toEqual({
      targets: full.targets,
      explicitTargets: full.explicitTargets,
      compiled: 3,
      warnings: full.warnings,
      notes: full.notes,
      standing: full.standing,
      unchanged: full.write.length + full.merge.length,
      summary: `compiled 3 skills for ${full.targets.length} targets`,
    });
    expect(readFileSync(join(root, '.kitbash/cache/.gitignore'), 'utf8')).toBe('*\n');
    // The probe file that timed the compile is gone.
    expect(readdirSync(join(root, '.kitbash')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('answers for nothing once anything the plan read has changed', async () => {
    const changes: Record<string, (root: string) => void> = {
      'a skill edited': (r) => writeFileSync(join(r, '.kitbash/skills/beta/SKILL.md'), '# beta\n\nNow different.\n'),
      'a skill added': (r) => cleanSkill(r, '.kitbash/skills/gamma', 'gamma'),
      'a skill removed': (r) => rmSync(join(r, '.kitbash/skills/alpha'), { recursive: true }),
      'kitbash.toml written': (r) => writeFileSync(join(r, 'kitbash.toml'), '[project]\n'),
      'an agent folder made': (r) => mkdirSync(join(r, '.zed')),
      'an output deleted': (r) => rmSync(join(r, '.cursor/rules/beta.mdc')),
      'a delivered script made plain': (r) => chmodSync(join(r, '.claude/skills/tool/scripts/run.sh'), 0o644),
      'a user section added to AGENTS.md': (r) =>
        writeFileSync(join(r, 'AGENTS.md'), '# Mine\n\nmore\n', { flag: 'a' }),
    };
    for (const [what, change] of Object.entries(changes)) {
      const root = project();
      expect((await compileRecorded(root)).recorded, what).toBe(true);
      expect(recordedReport(root), what).toBeDefined();
      change(root);
      expect(recordedReport(root), what).toBeUndefined();
    }
  });

  it('takes every path it keeps again: a new ctime on any one of them alone sends the compile the full way', async () => {
    // kitbash.toml through a link: the link and its target are both kept. A file written in the
    // probe's clock tick leaves no record, so the compile starts a tick later.
    const linked = async (): Promise<string> => {
      const root = project();
      writeFiles(root, {
        'settings/kitbash.toml': '[project]\n',
        'kitbash.toml': { symlink: 'settings/kitbash.toml' },
      });
      await new Promise((r) => setTimeout(r, 20));
      return root;
    };
    const first = await linked();
    expect((await compileRecorded(first)).recorded).toBe(true);
    const rec = JSON.parse(readFileSync(join(first, RECORD), 'utf8')) as { paths: string[]; kinds: string };
    const kinds = new Map(rec.paths.map((p, i) => [p, rec.kinds.charCodeAt(i) - 64]));
    expect(kinds.size).toBeGreaterThan(30);
    // Times set to what they were: the bytes stay, only ctime moves — still a change the record must see.
    const retime = (abs: string, follow: boolean): void => {
      const st = follow ? statSync(abs) : lstatSync(abs);
      (follow ? utimesSync : lutimesSync)(abs, st.atime, st.mtime);
    };
    const changes: [string, (root: string) => void][] = [];
    // A kind is 64 + how the path was asked about (1: presence alone), + 16 when a link's target is kept too.
    for (const [rel, kind] of kinds) {
      const abs = (root: string): string => (rel ? join(root, rel) : root);
      const there =
        (kind & 15) === 1 ? existsSync(abs(first)) : lstatSync(abs(first), { throwIfNoEntry: false }) !== undefined;
      if (!there) changes.push([`${rel} made`, (root) => writeFiles(root, { [rel]: '' })]);
      else if ((kind & 15) === 1)
        changes.push([`${rel} moved away`, (root) => renameSync(abs(root), `${abs(root)}.away`)]);
      else changes.push([`${rel} retimed`, (root) => retime(abs(root), false)]);
      if (kind & 16) changes.push([`${rel}'s target retimed`, (root) => retime(abs(root), true)]);
    }
    expect(changes.map(([what]) => what)).toContain("kitbash.toml's target retimed");
    for (const [what, change] of changes) {
      const root = await linked();
      expect((await compileRecorded(root)).recorded, what).toBe(true);
      expect(recordedReport(root), what).toBeDefined();
      change(root);
      expect(recordedReport(root), what).toBeUndefined();
    }
  });

  it('a generated file changed by hand, its size and mtime put back, is still rewritten', async () => {
    const root = project();
    expect(cli(root, 'compile').code).toBe(0);
    const out = join(root, '.claude/skills/alpha/SKILL.md');
    // A whole-second mtime, so that putting it back is exact; the compile after it records it.
    const second = Math.floor(Date.now() / 1000) - 60;
    utimesSync(out, second, second);
    expect(cli(root, 'compile').stdout).not.toMatch(/^→ /m);
    const before = readFileSync(out, 'utf8');
    const edited = before.replace('Does one small', 'DOES ONE SMALL');
    expect(edited).not.toBe(before);
    expect(edited.length).toBe(before.length);
    writeFileSync(out, edited);
    utimesSync(out, second, second);
    expect(statSync(out).mtimeMs).toBe(second * 1000);
    const again = cli(root, 'compile');
    expect(again.stdout).toContain('→ .claude/skills/alpha/SKILL.md\n');
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('an unchanged file is not rewritten: its inode and times stay; an edited skill’s outputs are rewritten', async () => {
    const root = project();
    expect(cli(root, 'compile').code).toBe(0);
    const kept = ['.claude/skills/alpha/SKILL.md', '.cursor/rules/alpha.mdc', '.claude/skills/tool/scripts/run.sh'];
    const before = Object.fromEntries(kept.map((p) => [p, ident(join(root, p))]));
    const edited = join(root, '.claude/skills/beta/SKILL.md');
    const beta = ident(edited);
    writeFileSync(join(root, '.kitbash/skills/beta/SKILL.md'), '# beta\n\nA new body.\n');
    const r = cli(root, 'compile');
    expect(r.stdout).toContain('→ .claude/skills/beta/SKILL.md\n');
    for (const p of kept) expect(ident(join(root, p)), p).toEqual(before[p]);
    expect(ident(edited).ino).not.toBe(beta.ino);
    expect(readFileSync(edited, 'utf8')).toContain('A new body.');
    // Nothing to do now: the record answers, and still nothing is rewritten.
    const after = Object.fromEntries(kept.map((p) => [p, ident(join(root, p))]));
    expect(cli(root, 'compile').stdout).not.toMatch(/^→ /m);
    for (const p of kept) expect(ident(join(root, p)), p).toEqual(after[p]);
  });

  it('the command answers from the record — and prints, byte for byte, what the full compile prints', () => {
    const root = project();
    cleanSkill(root, '.kitbash/skills/tidy--x', 'tidy--x');
    writeFiles(root, { '.zed/.keep': '' });
    expect(cli(root, 'compile').code).toBe(0);
    const viaRecord = cli(root, 'compile', '--strict');
    expect(existsSync(join(root, RECORD))).toBe(true);
    rmSync(join(root, RECORD));
    const full = cli(root, 'compile', '--strict');
    expect(viaRecord).toEqual(full);
    expect(full.code).toBe(1);
    expect(full.stdout).toContain('⚠ tidy--x → zed: name must match');
    // The answer really comes from the record: a note planted in it is printed ...
    const rec = JSON.parse(readFileSync(join(root, RECORD), 'utf8')) as { report: { notes: string[] } };
    rec.report.notes = ['planted in the record'];
    writeFileSync(join(root, RECORD), JSON.stringify(rec));
    expect(cli(root, 'compile').stdout).toContain('ℹ planted in the record\n');
    // ... until a source changes: then the compile runs in full again.
    writeFileSync(join(root, '.kitbash/skills/alpha/SKILL.md'), '# alpha\n\nEdited.\n');
    const ran = cli(root, 'compile');
    expect(ran.stdout).toContain('→ .claude/skills/alpha/SKILL.md\n');
    expect(ran.stdout).not.toContain('planted');
  });

  it('a hand-written file in the way is left alone and reported, by the record as by the full compile', () => {
    const root = project();
    expect(cli(root, 'compile').code).toBe(0);
    writeFileSync(join(root, '.cursor/rules/beta.mdc'), 'my own rule\n');
    const first = cli(root, 'compile');
    const warning = '.cursor/rules/beta.mdc was not written by Skillsmith';
    expect(first.stdout).toContain(warning);
    const second = cli(root, 'compile');
    expect(second.stdout).toContain(warning);
    expect(readFileSync(join(root, '.cursor/rules/beta.mdc'), 'utf8')).toBe('my own rule\n');
    writeFileSync(join(root, '.cursor/rules/beta.mdc'), 'my own rule, edited\n');
    expect(cli(root, 'compile').stdout).toContain(warning);
    expect(readFileSync(join(root, '.cursor/rules/beta.mdc'), 'utf8')).toBe('my own rule, edited\n');
  });

  it('an edit made while the compile runs is never recorded as seen', async () => {
    const root = project();
    const out = join(root, '.claude/skills/alpha/SKILL.md');
    const alpha = () => planProject(root).write.find((f) => f.path === '.claude/skills/alpha/SKILL.md');
    // A source edited after the planner read it.
    const source = () =>
      writeFileSync(join(root, '.kitbash/skills/alpha/SKILL.md'), '# alpha\n\nEdited mid-compile.\n');
    expect((await compileRecorded(root, { afterPlan: source })).recorded).toBe(false);
    expect(recordedReport(root)).toBeUndefined();
    expect(alpha()?.changed).toBe(true);
    // A generated output edited by hand after it was written, before the record is made.
    const edit = () => writeFileSync(out, readFileSync(out, 'utf8').replace('Edited mid-compile.', 'Edited by hand.'));
    expect((await compileRecorded(root, { afterApply: edit })).recorded).toBe(false);
    expect(recordedReport(root)).toBeUndefined();
    expect(alpha()?.changed).toBe(true);
    // Made hand-written (no generated header) instead: not what was written, so no record either;
    // the next compile leaves it alone, reports it, and records that.
    const own = () => writeFileSync(out, 'hand written\n');
    expect((await compileRecorded(root, { afterApply: own })).recorded).toBe(false);
    expect(recordedReport(root)).toBeUndefined();
    expect((await compileRecorded(root)).recorded).toBe(true);
    expect(readFileSync(out, 'utf8')).toBe('hand written\n');
    const full = planProject(root);
    expect(full.conflicts.map((c) => c.path)).toEqual(['.claude/skills/alpha']);
    expect(recordedReport(root)?.warnings).toEqual(full.warnings);
  });

  it('nothing is recorded for a dry run or a compile that skipped a broken skill', async () => {
    const root = project();
    const dry = cli(root, 'compile', '--dry-run');
    expect(dry.code).toBe(0);
    expect(existsSync(join(root, '.kitbash/cache'))).toBe(false);
    writeFileSync(join(root, '.kitbash/skills/beta/skill.toml'), 'not [ toml');
    expect(cli(root, 'compile').code).toBe(1);
    expect(existsSync(join(root, RECORD))).toBe(false);
    expect(readdirSync(join(root, '.kitbash')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a record of another engine, another folder, or no record at all is ignored', async () => {
    const root = project();
    await compileRecorded(root);
    const text = readFileSync(join(root, RECORD), 'utf8');
    const copy = tempProject('skillsmith-record-copy-');
    cpSync(root, copy, { recursive: true });
    expect(recordedReport(copy)).toBeUndefined();
    writeFileSync(join(root, RECORD), text.replace('"engine":"', '"engine":"another build '));
    expect(recordedReport(root)).toBeUndefined();
    writeFileSync(join(root, RECORD), '{ torn');
    expect(recordedReport(root)).toBeUndefined();
    const r = cli(root, 'compile');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('compiled 3 skills');
  });

  it('a record is never read or written through a folder that leads out of the project', async () => {
    const root = project();
    await compileRecorded(root);
    const outside = tempProject('skillsmith-record-outside-');
    renameSync(join(root, '.kitbash/cache'), join(outside, 'cache'));
    symlinkSync(join(outside, 'cache'), join(root, '.kitbash/cache'));
    // A valid record, but reached through the symlink: not used.
    expect(recordedReport(root)).toBeUndefined();
    rmSync(join(outside, 'cache'), { recursive: true });
    mkdirSync(join(outside, 'cache'));
    writeFileSync(join(root, '.kitbash/skills/beta/SKILL.md'), '# beta\n\nChanged.\n');
    const { applied, recorded } = await compileRecorded(root);
    expect(applied.written).toContain('.claude/skills/beta/SKILL.md');
    expect(recorded).toBe(false);
    expect(readdirSync(join(outside, 'cache'))).toEqual([]);
  });
});

describe('the batch writer', () => {
  it('a folder moved out of the project after it was opened gets none of the files', async () => {
    const root = tempProject('skillsmith-batch-');
    const away = tempProject('skillsmith-batch-away-');
    const dirs = openProjectDirs(root);
    try {
      dirs.use('out', true, () => undefined);
      renameSync(join(root, 'out'), join(away, 'out'));
      await expect(writeFilesInside(dirs, [{ rel: 'out/a.md', data: 'a\n' }], false)).rejects.toMatchObject({
        code: 'outside-project',
      });
    } finally {
      dirs.close();
    }
    expect(readdirSync(join(away, 'out'))).toEqual([]);
    expect(existsSync(join(root, 'out'))).toBe(false);
  });

  it('writes every file through few open folders, reopening the ones it closed', async () => {
    const root = tempProject('skillsmith-batch-');
    const files = Array.from({ length: 40 }, (_, i) => ({ rel: `d${i % 10}/sub/f${i}.md`, data: `file ${i}\n` }));
    const dirs = openProjectDirs(root, { maxOpen: 3 });
    try {
      await writeFilesInside(dirs, files, true);
    } finally {
      dirs.close();
    }
    for (const f of files) expect(readFileSync(join(root, f.rel), 'utf8')).toBe(f.data);
    for (let i = 0; i < 10; i++)
      expect(readdirSync(join(root, `d${i}/sub`)).some((n) => n.endsWith('.tmp'))).toBe(false);
  });

  it('a flush that cannot be done says so, so the writer falls back to fsync', async () => {
    const fd = openSync(tempProject('skillsmith-flush-'), 'r');
    try {
      expect(await flushFileSystems([fd])).toBe(canFlushFileSystems());
    } finally {
      closeSync(fd);
    }
    // A descriptor that is not open: the flush is refused, never claimed.
    expect(await flushFileSystems([987654])).toBe(false);
  });
});
