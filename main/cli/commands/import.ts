import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { isKsfName } from '../../../shared/names';
import { estimateTokens } from '../../../shared/ksf/tokens';
import { lintSkill } from '../../../shared/lint/checks';
import { SAFETY_CHECK_IDS } from '../../../shared/lint/types';
import {
  IMPORT_DIRS,
  IMPORT_FILES,
  importSource,
  defaultImportName,
  proposeSkill,
  type ImportSource,
} from '../../../shared/targets/import';
import { IMPORT_SOURCE, upsertEntry } from '../../../shared/lock/lockfile';
import { readLockOrThrow, treeIntegrityFast } from '../../services/lock';
import { loadFolder } from '../../services/skills/folder';
import { SKILLS_DIR } from '../../services/skills/locate';
import { makeStagingDir } from '../../services/sources';
import { withProjectLock } from '../../services/workspace/project-lock';
import { applyChange, recover } from '../../services/workspace/txn';
import { writeFileInside } from '../../services/fs/inside';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { scanAdoption } from '../../services/install/adopt';
import { adoptSkills } from './adopt-report';
import { INIT_TEMPLATE } from './init';
import { chooseTargets } from './choose-targets';
import { templateWithTargets } from '../../../shared/targets/choose';
import { prepareSkill } from '../../../shared/targets/prepare';
import { isRealFile } from '../../services/fs/probe';
import { CodedError, formatError } from '../../../shared/result';

const FLAGS = {
  write: { type: 'boolean' },
  name: { type: 'string' },
  'no-compile': { type: 'boolean' },
  targets: { type: 'string' },
  details: { type: 'boolean' },
} as const;

/** Hand-written instruction files; `skills` are rule files that are skills (adopted instead of merged). */
function collect(root: string, skills: ReadonlySet<string>): ImportSource[] {
  const out: ImportSource[] = [];
  const seen = new Set<string>(skills);
  const read = (rel: string, agent: string, loading: 'eager' | 'lazy') => {
    const s = importSource(rel, agent, loading, readFileSync(join(root, ...rel.split('/')), 'utf8'));
    if (s) out.push(s);
    seen.add(rel);
  };
  for (const f of IMPORT_FILES) if (isRealFile(join(root, f.path))) read(f.path, f.agent, f.loading);
  for (const d of IMPORT_DIRS) {
    const abs = join(root, ...d.dir.split('/'));
    if (!existsSync(abs) || !lstatSync(abs).isDirectory()) continue;
    for (const name of readdirSync(abs).sort()) {
      const rel = `${d.dir}/${name}`;
      if (name.endsWith(d.suffix) && !seen.has(rel) && isRealFile(join(abs, name))) read(rel, d.agent, d.loading);
    }
  }
  return out;
}

/**
 * `import [--write] [--details] [--name N] [--targets a,b] [--no-compile]`: existing agent
 * instruction files → one skill + a drift report, and skills written by hand in the agents'
 * folders → adopted into `.kitbash/skills` (see ./adopt-report). The safety checks run on
 * everything imported.
 */
export async function runImport(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length)
    throw new CodedError(
      'invalid-request',
      'usage: skillsmith import [--write] [--details] [--name <skill-name>] [--targets <a,b>] [--no-compile]',
    );
  if (flags.name !== undefined && !isKsfName(flags.name)) {
    io.err(`invalid skill name "${flags.name}" — use --name <a-z, digits, hyphens, 2–41 chars>\n`);
    return EXIT.failed;
  }
  const scan = await scanAdoption(io.cwd);
  try {
    const sources = collect(io.cwd, new Set(scan.plan.items.flatMap((i) => i.copies)));
    const adopting = scan.plan.items.length > 0 || scan.plan.skillsLock !== undefined;
    const code = sources.length ? await importInstructions(sources, flags, io) : 0;
    if (!sources.length && !adopting) {
      io.out(
        'no existing agent instruction files found (CLAUDE.md, AGENTS.md, .cursor/rules/, .clinerules, …).\n  nothing to import — author a skill instead: skillsmith init && skillsmith install <source>\n',
      );
      return EXIT.ok;
    }
    if (!adopting || code !== EXIT.ok) return code;
    return await adoptSkills(
      scan,
      { write: flags.write === true, compile: !flags['no-compile'], targets: flags.targets, details: flags.details },
      io,
    );
  } finally {
    await scan.dispose();
  }
}

async function importInstructions(
  sources: readonly ImportSource[],
  flags: { write?: boolean; name?: string; targets?: string },
  io: CliIo,
): Promise<ExitCode> {
  io.out(`found ${sources.length} agent config file${sources.length === 1 ? '' : 's'}:\n`);
  for (const s of sources) io.out(`  ${s.file}  → ${s.agent}  (~${s.tokens} tok, ${s.loading})\n`);
  io.out(
    `standing cost of the always-on files: ~${sources.filter((s) => s.loading === 'eager').reduce((n, s) => n + s.tokens, 0)} tokens every session\n`,
  );
  const name = flags.name ?? defaultImportName(basename(resolve(io.cwd)));
  const p = proposeSkill(name, sources);
  if (!p.drifted) io.out(`\n✓ all ${sources.length} carry the same rules — no drift.\n`);
  else {
    io.out(`\n⚠ these ${sources.length} files have drifted into ${p.groups.length} different versions:\n`);
    p.groups.forEach((g, i) => io.out(`  version ${i + 1}: ${g.files.join(', ')}\n`));
    io.out('  the canonical version below is the one the most agents agree on.\n');
  }

  // Safety checks on what is being imported (the reference runs none).
  const staging = await makeStagingDir();
  try {
    const dir = join(staging.dir, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'skill.toml'), p.manifest);
    writeFileSync(join(dir, 'SKILL.md'), p.skillMd);
    const loaded = loadFolder(dir, name, name);
    if (!loaded.ok) {
      io.err(`cannot import: ${formatError(loaded.error)}\n`);
      return EXIT.failed;
    }
    const blocking = lintSkill(loaded.value).filter((c) => c.status === 'fail' && SAFETY_CHECK_IDS.includes(c.id));
    io.out(
      `\n— proposed skill "${name}" (budget ${p.budget}) —\n\n${p.manifest}\n# SKILL.md (${estimateTokens(p.groups[0]!.body)} tok, first lines):\n${p.groups[0]!.body.split('\n').slice(0, 8).join('\n')}\n`,
    );
    if (blocking.length) {
      for (const c of blocking) io.err(`  ✗ safety: ${c.id} — ${c.detail ?? ''}\n`);
      io.err('blocked — the imported instructions fail a safety check; fix the source files first. Nothing written.\n');
      return EXIT.failed;
    }
    if (!flags.write) {
      io.out(`\nre-run with --write to save it to .kitbash/skills/${name}/, then: skillsmith compile\n`);
      return EXIT.ok;
    }
    // A project set up here gets its targets chosen, priced for the imported skill (spec D220).
    const prepared = prepareSkill(loaded.value);
    const setUp = !existsSync(join(io.cwd, 'kitbash.toml'));
    const chosen = setUp
      ? await chooseTargets(
          flags.targets,
          prepared.ok ? [prepared.value] : [],
          io,
          sources.map((s) => s.agent),
        )
      : undefined;
    if (chosen && !chosen.ok) throw CodedError.of(chosen.error);
    return await withProjectLock(io.cwd, 'import', async () => {
      for (const line of await recover(io.cwd)) io.err(`note: ${line}\n`);
      if (existsSync(join(io.cwd, SKILLS_DIR, name))) {
        io.err(`.kitbash/skills/${name}/ already exists — pass --name <other> or remove it first.\n`);
        return EXIT.failed;
      }
      if (chosen && !existsSync(join(io.cwd, 'kitbash.toml')))
        writeFileInside(io.cwd, 'kitbash.toml', templateWithTargets(INIT_TEMPLATE, chosen.value));
      const lock = readLockOrThrow(io.cwd).entries;
      const integrity = treeIntegrityFast(loaded.value.tree);
      await applyChange(
        io.cwd,
        {
          put: new Map([[name, { tree: loaded.value.tree, executable: new Set<string>() }]]),
          remove: [],
          lock: upsertEntry(lock, { name, version: '0.1.0', source: IMPORT_SOURCE, integrity }),
        },
        'import',
      );
      io.out(
        `\nwrote .kitbash/skills/${name}/ (skill.toml + SKILL.md), pinned in kitbash.lock\nnext: skillsmith compile\nthen: review the compiled output and delete the hand-written copies you no longer need\n`,
      );
      return EXIT.ok;
    });
  } finally {
    await staging.dispose();
  }
}
