import { resolveTarget } from '../../services/skills/locate';
import { signFolder } from '../../services/signing/folder';
import { SIGNATURE_FILE } from '../../services/signing/bundle';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { CodedError } from '../../../shared/result';

const FLAGS = { key: { type: 'string' } } as const;
const USAGE = 'usage: skillsmith sign <skill path | name> --key FILE';

/**
 * `sign <skill> --key FILE`: a Sigstore bundle (an OMS statement over every file of the
 * folder, scripts included) written to the folder's skill.oms.sig, for `[policy]
 * trusted_publishers` to check at install (SPEC D212).
 */
export function runSign(argv: readonly string[], io: CliIo): ExitCode {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const arg = positionals[0];
  if (arg === undefined || positionals.length > 1 || flags.key === undefined)
    throw new CodedError('invalid-request', USAGE);
  const loc = resolveTarget(arg, io.cwd);
  if (!loc.ok) throw CodedError.of(loc.error);
  if (loc.value.kind === 'broken') throw new CodedError('invalid-input', `${loc.value.display}: ${loc.value.problem}`);
  const done = signFolder(loc.value.abs, loc.value.nameHint, flags.key);
  if (!done.ok) throw CodedError.of(done.error);
  io.out(
    `signed ${done.value.files} file${done.value.files === 1 ? '' : 's'} of ${loc.value.display} with ${done.value.keyId}\n  wrote ${loc.value.display}/${SIGNATURE_FILE}\n`,
  );
  return EXIT.ok;
}
