import { initProject } from '../../services/project/init';
import { parseCommandArgs } from '../args';
import type { CliIo, ExitCode } from '../io';
import { EXIT } from '../io';

export { INIT_TEMPLATE } from '../../services/project/init';

/** `init`: write kitbash.toml (only if absent) and create .kitbash/skills/. */
export function runInit(argv: readonly string[], io: CliIo): ExitCode {
  parseCommandArgs(argv, {});
  if (!initProject(io.cwd)) {
    io.out('kitbash.toml already exists — nothing to do\n');
    return EXIT.ok;
  }
  io.out(
    'created kitbash.toml and .kitbash/skills/\nnext: skillsmith install <gh:owner/repo | owner/repo | git URL | file:path>, then skillsmith compile\n',
  );
  return EXIT.ok;
}
