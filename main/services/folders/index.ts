import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Result } from '../../../shared/ksf/errors';
import type { FolderListing } from '../../../shared/ipc/channels/folders';
import { describeFsError } from '../fs/describe-error';
import { resolveInside } from '../fs/contain';
import { isDirectory } from '../fs/probe';

const MAX_FOLDERS = 500;

export interface FolderError {
  readonly reason: 'outside-home' | 'unreadable';
  /** One line naming the folder and the problem. */
  readonly message: string;
}

const isProject = (dir: string): boolean => existsSync(join(dir, 'kitbash.toml')) || existsSync(join(dir, '.kitbash'));

/**
 * The sub-folders of `path` (default: the home folder), for the browser mode's folder
 * picker. Confined to `home`: a path outside it, or a symlink leading out of it, is
 * refused, so the page cannot map the rest of the machine.
 */
export function listFolders(path: string | undefined, home: string = homedir()): Result<FolderListing, FolderError> {
  const realHome = realpathSync(home);
  const inside = resolveInside(realHome, path ?? realHome);
  if (!inside)
    return {
      ok: false,
      error: {
        reason: 'outside-home',
        message: `${path ?? home}: is outside your home folder — the browser picker only lists folders inside it`,
      },
    };
  let real: string;
  let entries;
  try {
    real = realpathSync(inside);
    entries = readdirSync(real, { withFileTypes: true });
  } catch (e) {
    return { ok: false, error: { reason: 'unreadable', message: `${inside}: ${describeFsError(e)}` } };
  }
  const names = entries
    .filter(
      (e) =>
        !e.name.startsWith('.') &&
        (e.isDirectory() ||
          (e.isSymbolicLink() &&
            resolveInside(realHome, join(real, e.name)) !== undefined &&
            isDirectory(join(real, e.name)))),
    )
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b));
  const folders = names
    .slice(0, MAX_FOLDERS)
    .map((name) => ({ name, path: join(real, name), project: isProject(join(real, name)) }));
  return {
    ok: true,
    value: {
      path: real,
      parent: real === realHome ? null : dirname(real),
      project: isProject(real),
      folders,
      truncated: names.length > MAX_FOLDERS,
    },
  };
}
