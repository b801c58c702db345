import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE } from '../../../shared/project/config';
import { CodedError } from '../../../shared/result';
import { prepareSkill } from '../../../shared/targets/prepare';
import { initProject } from '../../services/project/init';
import { loadedOf, readInstalled } from '../../services/skills/installed';
import { parseCommandArgs } from '../args';
import type { CliIo, ExitCode } from '../io';
import { EXIT } from '../io';
import { chooseTargets } from './choose-targets';

export { INIT_TEMPLATE } from '../../services/project/init';

const FLAGS = { targets: { type: 'string' } } as const;

/** `init [--targets a,b]`: write kitbash.toml (only if absent) with the chosen targets, and create .kitbash/skills/. */
export async function runInit(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { flags } = parseCommandArgs(argv, FLAGS);
  if (existsSync(join(io.cwd, CONFIG_FILE))) {
    io.out('kitbash.toml already exists — nothing to do\n');
    return EXIT.ok;
  }
  const skills = loadedOf(await readInstalled(io.cwd)).skills.flatMap((s) => {
    const p = prepareSkill(s);
    return p.ok ? [p.value] : [];
  });
  const chosen = await chooseTargets(flags.targets, skills, io);
  if (!chosen.ok) throw CodedError.of(chosen.error);
  if (!initProject(io.cwd, chosen.value)) {
    io.out('kitbash.toml already exists — nothing to do\n');
    return EXIT.ok;
  }
  io.out(
    `created kitbash.toml (targets: ${chosen.value.join(', ')}) and .kitbash/skills/\nnext: skillsmith install <gh:owner/repo | owner/repo | git URL | file:path>, then skillsmith compile\n`,
  );
  return EXIT.ok;
}
