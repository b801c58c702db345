import { confirmExceptions } from '../../main/services/policy/confirmations';
import { readProjectConfig } from '../../main/services/project/config';
import { configDirForTests } from './paths';

/**
 * In-process services read the per-user config folder from SKILLSMITH_CONFIG_DIR; a test
 * process points it at its own temporary folder (the one the built CLI gets too), so a test
 * never confirms anything for the user running it.
 */
export function useTestConfigDir(): string {
  process.env.SKILLSMITH_CONFIG_DIR ??= configDirForTests();
  return process.env.SKILLSMITH_CONFIG_DIR;
}

/**
 * Confirm every [[policy.exceptions]] entry of the project as written now, as the user does
 * with `skillsmith exceptions confirm --all` (spec D190): for tests that hand-write entries
 * as a team member would, not as a clone delivers them.
 */
export function confirmAllExceptions(root: string): void {
  useTestConfigDir();
  const config = readProjectConfig(root);
  if (!config.ok) throw new Error(config.error.message);
  confirmExceptions(root, config.value, 'all');
}
