import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fail, type Result } from '../../../shared/result';
import type { FolderListing } from '../../../shared/ipc/channels/folders';
import { describeFsError } from '../fs/describe-error';
import { resolveInside } from '../fs/contain';
import { isDirectory } from '../fs/probe';

const MAX_FOLDERS = 500;

const isProject = (dir: string): boolean => existsSync(join(dir, 'kitbash.toml')) || existsSync(join(dir, '.kitbash'));

/**
 * The sub-folders of `path` (default: the home folder), for the browser mode's folder
 * picker. Confined to `home`: a path outside it, or a symlink leading out of it, is
 * refused (`forbidden`), so the page cannot map the rest of the machine; a folder that
 * cannot be listed is `not-found`.
 */
export function listFolders(path: string | undefined, home: string = homedir()): Result<FolderListing> {
  const realHome = realpathSync(home);
  const inside = resolveInside(realHome, path ?? realHome);
  if (!inside)
    return fail(
      'forbidden',
      `${path ?? home}: is outside your home folder — the browser picker only lists folders inside it`,
    );
  let real: string;
  let entries;
  try {
    real = realpathSync(inside);
    entries = readdirSync(real, { withFileTypes: true });
  } catch (e) {
    return fail('not-found', `${inside}: ${describeFsError(e)}`);
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
