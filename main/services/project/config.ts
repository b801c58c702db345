import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileError, type Result } from '../../../shared/result';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { CONFIG_FILE, EMPTY_CONFIG, parseProjectConfig, type ProjectConfig } from '../../../shared/project/config';
import { describeFsError } from '../fs/describe-error';
import { withConfirmations } from '../policy/confirmations';

/** Largest `kitbash.toml` we parse; a project file this big is a mistake or an attack. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * `kitbash.toml` of a project root (the reference reads only the current directory,
 * never a parent). A missing file is an empty configuration, not an error. Its exceptions
 * are those this user confirmed (spec D190); the others are in `unconfirmedExceptions`.
 */
export function readProjectConfig(projectRoot: string): Result<ProjectConfig> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(projectRoot, CONFIG_FILE));
  } catch (e) {
    return unreadConfig(e);
  }
  return forUser(projectRoot, parseConfigBytes(bytes));
}

/** readProjectConfig through promises (install steps the app runs must not hold its main thread). */
export async function readProjectConfigAsync(projectRoot: string): Promise<Result<ProjectConfig>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(projectRoot, CONFIG_FILE));
  } catch (e) {
    return unreadConfig(e);
  }
  return forUser(projectRoot, parseConfigBytes(bytes));
}

const forUser = (root: string, r: Result<ProjectConfig>): Result<ProjectConfig> =>
  r.ok ? { ok: true, value: withConfirmations(root, r.value) } : r;

function unreadConfig(e: unknown): Result<ProjectConfig> {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: EMPTY_CONFIG };
  return { ok: false, error: fileError(CONFIG_FILE, describeFsError(e)) };
}

function parseConfigBytes(bytes: Buffer): Result<ProjectConfig> {
  if (bytes.length > MAX_CONFIG_BYTES)
    return { ok: false, error: fileError(CONFIG_FILE, `is larger than 1 MiB — refusing to parse it`) };
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return { ok: false, error: { ...decoded.error, file: CONFIG_FILE } };
  return parseProjectConfig(decoded.value.text, CONFIG_FILE);
}
