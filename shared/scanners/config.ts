import { isTable, type TomlTable } from '../ksf/toml';
import { canonicalJson } from '../evals/consent';
import { utf8Encode } from '../lock/integrity';
import { sha256Hex } from '../lock/sha256';
import { fileError, ok, type Result } from '../result';

/**
 * `[scanners.<name>]` of kitbash.toml (SPEC D250): external programs that read a skill folder
 * and report SARIF. Skillsmith runs only what a table names, only once this user confirmed
 * it (D252), and downloads nothing for them.
 */
export interface ScannerDef {
  readonly name: string;
  /** argv as written: `{skill}`, `{sarif}` and `{project}` are filled in per run; never passed to a shell. */
  readonly command: readonly string[];
  /** Seconds before the run is killed. */
  readonly timeout: number;
  /** What a confirmation is bound to: the name, the command and the timeout as written now. */
  readonly id: string;
}

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface ScannerConfig {
  readonly scanners: readonly ScannerDef[];
  /** `[policy] block_scanner_findings`: findings at this severity or above block; absent → all advisory. */
  readonly blockAt?: Severity;
}

export const DEFAULT_SCANNER_TIMEOUT = 120;
const MAX_TIMEOUT = 3600;
const MAX_SCANNERS = 16;
const MAX_ARG = 1000;
const MAX_ARGS = 64;
/** The placeholders a command may carry; any other `{word}` is taken for a typo. */
export const PLACEHOLDERS = ['{skill}', '{sarif}', '{project}'] as const;
const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,39}$/;

const bad = (file: string, message: string): Result<never> => ({ ok: false, error: fileError(file, message) });

/** `[scanners]` and `[policy] block_scanner_findings`, each problem one line naming the file and the key. */
export function readScanners(raw: Readonly<TomlTable>, file = 'kitbash.toml'): Result<ScannerConfig> {
  const policy = isTable(raw.policy) ? raw.policy : undefined;
  const block = policy?.block_scanner_findings;
  if (block !== undefined && !(SEVERITIES as readonly unknown[]).includes(block))
    return bad(file, `[policy] block_scanner_findings must be one of ${SEVERITIES.map((s) => `"${s}"`).join(', ')}`);
  const table = raw.scanners;
  if (table === undefined) return ok({ scanners: [], ...(block ? { blockAt: block as Severity } : {}) });
  if (!isTable(table)) return bad(file, '[scanners] must be a table of [scanners.<name>] tables');
  const names = Object.keys(table);
  if (names.length > MAX_SCANNERS) return bad(file, `[scanners] names more than ${MAX_SCANNERS} scanners`);
  const scanners: ScannerDef[] = [];
  for (const name of names) {
    const at = `[scanners.${name}]`;
    if (!NAME_RE.test(name))
      return bad(file, `${at}: a scanner name is lower-case letters, digits, "-" and "_" (at most 40)`);
    const t = table[name];
    if (!isTable(t)) return bad(file, `${at} must be a table with command = ["program", "arg", …]`);
    const unknown = Object.keys(t).find((k) => k !== 'command' && k !== 'timeout');
    if (unknown !== undefined) return bad(file, `${at}: unknown key "${unknown}" (command, timeout)`);
    const command = t.command;
    if (
      !Array.isArray(command) ||
      command.length === 0 ||
      command.length > MAX_ARGS ||
      !command.every((a) => typeof a === 'string' && a.length <= MAX_ARG && !/\p{Cc}/u.test(a))
    )
      return bad(file, `${at} command must be an array of 1 to ${MAX_ARGS} strings without control characters`);
    const args = command as string[];
    if (args[0]!.trim() === '' || args[0]!.includes('{'))
      return bad(file, `${at} command must start with the program to run, not a placeholder`);
    for (const a of args) {
      const typo = (a.match(/\{[a-z_]+\}/g) ?? []).find((p) => !(PLACEHOLDERS as readonly string[]).includes(p));
      if (typo !== undefined)
        return bad(file, `${at} command: unknown placeholder ${typo} (${PLACEHOLDERS.join(', ')})`);
    }
    if (!args.some((a) => a.includes('{skill}')))
      return bad(file, `${at} command must name the skill folder with {skill}`);
    const tv = typeof t.timeout === 'bigint' ? Number(t.timeout) : (t.timeout ?? DEFAULT_SCANNER_TIMEOUT);
    if (typeof tv !== 'number' || !Number.isInteger(tv) || tv < 1 || tv > MAX_TIMEOUT)
      return bad(file, `${at} timeout must be a whole number of seconds from 1 to ${MAX_TIMEOUT}`);
    scanners.push({ name, command: args, timeout: tv, id: scannerId(name, args, tv) });
  }
  return ok({ scanners, ...(block ? { blockAt: block as Severity } : {}) });
}

function scannerId(name: string, command: readonly string[], timeout: number): string {
  return sha256Hex(utf8Encode(canonicalJson({ name, command: [...command], timeout }))).slice(0, 16);
}

/**
 * The argv of one run: each placeholder replaced inside its argument (`--output={sarif}`
 * works). `{skill}` is the staged folder, `{sarif}` a file in a fresh private folder,
 * `{project}` the project root (for a rules file kept in the project).
 */
export function scannerArgv(
  def: ScannerDef,
  paths: { readonly skill: string; readonly sarif: string; readonly project: string },
): string[] {
  return def.command.map((a) =>
    a.replaceAll('{skill}', paths.skill).replaceAll('{sarif}', paths.sarif).replaceAll('{project}', paths.project),
  );
}

/** Whether the scanner writes SARIF to `{sarif}` (else it is read from its standard output). */
export const writesSarifFile = (def: ScannerDef): boolean => def.command.some((a) => a.includes('{sarif}'));

/** Does a finding of `severity` block under `blockAt`? */
export function severityBlocks(severity: Severity, blockAt: Severity | undefined): boolean {
  return blockAt !== undefined && SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(blockAt);
}
