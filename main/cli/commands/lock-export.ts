import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IMPORT_SOURCE } from '../../../shared/lock/lockfile';
import {
  parseSkillsLock,
  serializeSkillsLock,
  SKILLS_LOCK_FILE,
  skillsLockEntryOf,
  type SkillsLockEntry,
} from '../../../shared/lock/skills-lock';
import { parseSource } from '../../../shared/lock/source';
import { CodedError, formatError } from '../../../shared/result';
import { plural } from '../../../shared/text/format';
import { writeFileInside } from '../../services/fs/inside';
import { readLockAsyncOrThrow } from '../../services/lock';
import { withProjectLock } from '../../services/workspace/project-lock';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';

const FLAGS = { overwrite: { type: 'string' } } as const;
const USAGE = `usage: skillsmith lock export skills-lock [--overwrite ${SKILLS_LOCK_FILE}]`;
/** The sha256 of the skills-lock.json Skillsmith last wrote: the file is Skillsmith's while it still matches. */
const WRITTEN = '.kitbash/skills-lock.json.sha256';

const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * `lock export skills-lock`: write the pins of kitbash.lock into `skills-lock.json`, so the
 * `skills` CLI fetches the same sources (SPEC D306). A file Skillsmith did not write — or that
 * changed since it did — is replaced only with `--overwrite skills-lock.json`; its entries
 * for skills kitbash.lock does not pin are kept either way.
 */
export async function runLockExport(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length !== 2 || positionals[0] !== 'export' || positionals[1] !== 'skills-lock')
    throw new CodedError('invalid-request', USAGE);
  if (flags.overwrite !== undefined && flags.overwrite !== SKILLS_LOCK_FILE)
    throw new CodedError('invalid-request', `--overwrite names the file it may replace: ${SKILLS_LOCK_FILE}\n${USAGE}`);
  return withProjectLock(io.cwd, 'lock export', async () => {
    const pins = (await readLockAsyncOrThrow(io.cwd)).entries;
    const entries: SkillsLockEntry[] = [];
    const left: string[] = [];
    for (const e of pins) {
      const spec = parseSource(e.source, (p) => existsSync(resolve(io.cwd, p)));
      const entry =
        e.source === IMPORT_SOURCE || e.source === '' || !spec.ok ? undefined : skillsLockEntryOf(e.name, spec.value);
      if (entry) entries.push(entry);
      else left.push(e.name);
    }
    const abs = join(io.cwd, SKILLS_LOCK_FILE);
    let prior: Record<string, unknown> = {};
    if (existsSync(abs)) {
      const bytes = readFileSync(abs);
      const ours =
        existsSync(join(io.cwd, WRITTEN)) && readFileSync(join(io.cwd, WRITTEN), 'utf8').trim() === sha(bytes);
      if (!ours && flags.overwrite !== SKILLS_LOCK_FILE) {
        io.err(
          `${SKILLS_LOCK_FILE} was not written by Skillsmith (or was changed since) — nothing written; rerun with --overwrite ${SKILLS_LOCK_FILE} to replace it (its entries for skills kitbash.lock does not pin are kept)\n`,
        );
        return EXIT.failed;
      }
      const parsed = parseSkillsLock(bytes.toString('utf8'));
      if (!parsed.ok) throw new CodedError('invalid-input', formatError(parsed.error));
      prior = (JSON.parse(bytes.toString('utf8')) as { skills: Record<string, unknown> }).skills;
    }
    const text = serializeSkillsLock(entries, prior);
    writeFileInside(io.cwd, SKILLS_LOCK_FILE, text);
    writeFileInside(io.cwd, WRITTEN, `${sha(text)}\n`);
    io.out(`wrote ${SKILLS_LOCK_FILE}: ${plural(entries.length, 'skill')} from kitbash.lock\n`);
    if (left.length)
      io.out(`  not written (a source the skills CLI cannot fetch, e.g. import:local): ${left.join(', ')}\n`);
    return EXIT.ok;
  });
}
