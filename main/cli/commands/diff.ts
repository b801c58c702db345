import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Skill } from '../../../shared/ksf/model';
import { fileChanges, manifestDelta } from '../../../shared/lock/changes';
import { nodePowers, powersDelta } from '../../../shared/lock/powers';
import { unifiedDiff } from '../../../shared/text/diff';
import { IMPORT_SOURCE } from '../../../shared/lock/lockfile';
import { readLockOrThrow } from '../../services/lock';
import { loadFolder } from '../../services/skills/folder';
import { installedSkills, SKILLS_DIR } from '../../services/skills/locate';
import { readSkillTree } from '../../services/skills/reader';
import { makeStagingDir, openSource, stageFolder } from '../../services/sources';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { escapeTerminal } from '../../../shared/terminal/escape';

interface Side {
  label: string;
  skill?: Skill;
  tree: Skill['tree'];
}

const USAGE = [
  'usage: skillsmith diff <skill-name> [<skill-name | path | source>]',
  '  one argument: diff the installed skill against a fresh fetch of its pinned source',
  '  two arguments: diff any two skills (installed name, path, or source)',
].join('\n');

/** diff(1)'s exit codes, as the CLI's: the same, they differ, trouble (nothing compared). */
const DIFF_EXIT = { same: EXIT.ok, differs: EXIT.failed, trouble: EXIT.usage } as const;

/** `diff <a> [<b>]` — read-only; exit 0 same, 1 differs, 2 trouble (diff(1) codes). */
export async function runDiff(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const args = argv.filter((a) => !a.startsWith('-'));
  if (args.length === 0 || args.length > 2) {
    io.err(`${USAGE}\n`);
    return DIFF_EXIT.trouble;
  }
  const cleanups: Array<() => Promise<void>> = [];
  try {
    let a: Side;
    let b: Side;
    if (args.length === 1) {
      const entry = readLockOrThrow(io.cwd).entries.find((e) => e.name === args[0]);
      if (!entry) {
        io.err(`${args[0]} is not pinned in kitbash.lock — install it first, or pass two targets to compare.\n`);
        return DIFF_EXIT.trouble;
      }
      if (entry.source === IMPORT_SOURCE) {
        io.err(
          `${entry.name} was imported in this project (${IMPORT_SOURCE}) — there is no source to compare with; pass two targets instead.\n`,
        );
        return DIFF_EXIT.trouble;
      }
      a = side(io.cwd, join(io.cwd, SKILLS_DIR, entry.name), entry.name);
      b = await fetched(io.cwd, entry.source, cleanups);
    } else {
      a = await target(io.cwd, args[0]!, cleanups);
      b = await target(io.cwd, args[1]!, cleanups);
    }
    const changes =
      a.skill && b.skill
        ? [
            ...manifestDelta(a.skill.manifest, b.skill.manifest),
            ...powersDelta(nodePowers(a.skill, []).carried, nodePowers(b.skill, []).carried, {
              manifested: b.skill.manifested,
            }),
          ]
        : [];
    const files = fileChanges(a.tree, b.tree);
    if (!changes.length && !files.length) {
      io.out(`no differences: ${escapeTerminal(b.label)}\n`);
      return DIFF_EXIT.same;
    }
    io.out(`diff: ${escapeTerminal(a.label)} → ${escapeTerminal(b.label)}\n`);
    if (changes.length) {
      io.out('manifest:\n');
      for (const c of changes) io.out(`  ${c.line}\n`);
    }
    if (files.length) {
      io.out('files:\n');
      for (const f of files)
        io.out(`  ${f.change} ${escapeTerminal(f.path)}${f.opaque ? ' (binary or symlink — not line-diffed)' : ''}\n`);
      for (const f of files) {
        if (f.opaque) continue;
        const d = unifiedDiff(escapeTerminal(f.path), f.before ?? '', f.after ?? '');
        if (d) io.out(`\n${d}`);
      }
    }
    return DIFF_EXIT.differs;
  } catch (e) {
    io.err(`skillsmith diff: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    return DIFF_EXIT.trouble;
  } finally {
    for (const c of cleanups) await c();
  }
}

function side(cwd: string, abs: string, hint: string): Side {
  const tree = readSkillTree(abs, hint);
  if (!tree.ok) throw new Error(`${hint}: ${tree.error.message}`);
  const l = loadFolder(abs, hint, hint);
  return {
    label: l.ok ? `${l.value.manifest.skill.name}@${l.value.manifest.skill.version}` : '(unloadable)',
    ...(l.ok ? { skill: l.value } : {}),
    tree: tree.value,
  };
}

async function fetched(cwd: string, source: string, cleanups: Array<() => Promise<void>>): Promise<Side> {
  const co = await openSource(source, cwd);
  try {
    const staging = await makeStagingDir();
    cleanups.push(staging.dispose);
    const dir = await stageFolder(co.skillDir, staging.dir, 'fetched', source);
    return side(cwd, dir, co.subpath.split('/').pop() || 'fetched');
  } finally {
    await co.dispose();
  }
}

async function target(cwd: string, arg: string, cleanups: Array<() => Promise<void>>): Promise<Side> {
  const abs = resolve(cwd, arg.startsWith('file:') && !arg.startsWith('file://') ? arg.slice(5) : arg);
  if (existsSync(abs)) return side(cwd, abs, arg);
  if (installedSkills(cwd).some((s) => s.nameHint === arg)) return side(cwd, join(cwd, SKILLS_DIR, arg), arg);
  return fetched(cwd, arg, cleanups);
}
