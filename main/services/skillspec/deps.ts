/** The Node host for `spec deps`: PATH lookup, file existence, environment variables. */
import { statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { DepsHost } from '../../../shared/skillspec/deps';

function isExecutableFile(p: string): boolean {
  try {
    const st = statSync(p);
    return st.isFile() && (process.platform === 'win32' || (st.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

export function nodeDepsHost(specPath: string, cwd: string, env: NodeJS.ProcessEnv = process.env): DepsHost {
  const specDir = resolve(cwd, dirname(specPath));
  return {
    findExecutable(program) {
      if (program.includes('/')) return isExecutableFile(resolve(cwd, program));
      const path = env['PATH'];
      if (path === undefined) return false;
      return path.split(delimiter).some((dir) => isExecutableFile(resolve(cwd, join(dir, program))));
    },
    pathSize(path) {
      try {
        return statSync(isAbsolute(path) ? path : resolve(specDir, path)).size;
      } catch {
        return undefined;
      }
    },
    envSet: (name) => env[name] !== undefined,
  };
}
