import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveTarget } from '../../services/skills/locate';
import { signFolder } from '../../services/signing/folder';
import { SIGNATURE_FILE } from '../../services/signing/bundle';
import { describeFsError } from '../../services/fs/describe-error';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { CodedError } from '../../../shared/result';

const FLAGS = {
  key: { type: 'string' },
  keyless: { type: 'boolean' },
  'identity-token-file': { type: 'string' },
  'fulcio-url': { type: 'string' },
  'rekor-url': { type: 'string' },
} as const;
const USAGE =
  'usage: skillsmith sign <skill path | name> (--key FILE | --keyless [--identity-token-file FILE] [--fulcio-url URL] [--rekor-url URL])';
/** Where the identity token comes from when no file is named (the variable cosign and sigstore-js read). */
const TOKEN_VARIABLE = 'SIGSTORE_ID_TOKEN';

/**
 * `sign <skill> --key FILE | --keyless`: a Sigstore bundle (an OMS statement over every file
 * of the folder, scripts included) written to the folder's skill.oms.sig, for `[policy]
 * trusted_publishers` to check at install (SPEC D212, D217).
 */
export async function runSign(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  const arg = positionals[0];
  const keylessOnly = flags['identity-token-file'] ?? flags['fulcio-url'] ?? flags['rekor-url'];
  if (
    arg === undefined ||
    positionals.length > 1 ||
    (flags.key === undefined) === (flags.keyless !== true) ||
    (keylessOnly !== undefined && flags.keyless !== true)
  )
    throw new CodedError('invalid-request', USAGE);
  const loc = resolveTarget(arg, io.cwd);
  if (!loc.ok) throw CodedError.of(loc.error);
  if (loc.value.kind === 'broken') throw new CodedError('invalid-input', `${loc.value.display}: ${loc.value.problem}`);
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  const wrote = `  wrote ${loc.value.display}/${SIGNATURE_FILE}\n`;
  if (flags.key !== undefined) {
    const done = signFolder(loc.value.abs, loc.value.nameHint, flags.key);
    if (!done.ok) throw CodedError.of(done.error);
    io.out(`signed ${files(done.value.files)} of ${loc.value.display} with ${done.value.keyId}\n${wrote}`);
    return EXIT.ok;
  }
  const { PUBLIC_FULCIO_URL, PUBLIC_REKOR_URL, serviceUrl, signFolderKeyless } =
    await import('../../services/signing/keyless-sign');
  const fulcio = serviceUrl('--fulcio-url', flags['fulcio-url'] ?? PUBLIC_FULCIO_URL);
  if (!fulcio.ok) throw CodedError.of(fulcio.error);
  const rekor = serviceUrl('--rekor-url', flags['rekor-url'] ?? PUBLIC_REKOR_URL);
  if (!rekor.ok) throw CodedError.of(rekor.error);
  const token = identityToken(flags['identity-token-file'], io.cwd);
  const done = await signFolderKeyless(loc.value.abs, loc.value.nameHint, {
    token,
    fulcioUrl: fulcio.value,
    rekorUrl: rekor.value,
  });
  if (!done.ok) throw CodedError.of(done.error);
  const d = done.value;
  io.out(
    `signed ${files(d.files)} of ${loc.value.display} as ${d.identity} (issuer ${d.issuer})\n` +
      `  certificate from ${fulcio.value}, entry ${d.logIndex} in ${rekor.value}\n${wrote}`,
  );
  return EXIT.ok;
}

/** The OIDC identity token: the named file's text (trimmed), else $SIGSTORE_ID_TOKEN. Never echoed. */
function identityToken(file: string | undefined, cwd: string): string {
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(cwd, file), 'utf8');
    } catch (e) {
      throw new CodedError('invalid-input', `${file}: ${describeFsError(e)} (--identity-token-file)`);
    }
    const token = text.trim();
    if (token === '') throw new CodedError('invalid-input', `${file}: empty — no identity token in it`);
    return token;
  }
  const token = process.env[TOKEN_VARIABLE]?.trim() ?? '';
  if (token === '')
    throw new CodedError(
      'invalid-request',
      `--keyless needs an OIDC identity token: set ${TOKEN_VARIABLE} or pass --identity-token-file FILE`,
    );
  return token;
}
