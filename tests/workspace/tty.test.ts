/** The prompt path: only a terminal is asked, and only `y`/`yes` installs or removes. Uses script(1) for a pty. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtCliExists } from '../cli/helpers';
import { requireOrSkip, skillsmithBin } from '../support/paths';
import { cleanupTemps, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const ready =
  requireOrSkip('script(1) from util-linux', hasScript) && requireOrSkip('built CLI (npm run build)', builtCliExists());

function inTerminal(cwd: string, args: string[], answer: string): { code: number; out: string } {
  const cmd = [process.execPath, skillsmithBin, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd, input: answer, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout };
}

describe.skipIf(!ready)('interactive approval', () => {
  it('asks in a terminal: "n" aborts, "yes" installs; remove offers orphaned dependencies', () => {
    const p = temp();
    write(p, {
      'kitbash.toml': '[project]\ntargets = ["claude-code"]\n',
      ...skillFiles('v/top', 'top', { deps: { lib: '^1' } }),
      ...skillFiles('v/lib', 'lib'),
    });
    const no = inTerminal(p, ['install', 'file:./v/top', '--no-compile'], 'n\n');
    expect(no.out).toContain('install top@1.0.0 and 1 dependency? [y/N]');
    expect(no.out).toContain('aborted — nothing installed.');
    expect(no.code).toBe(1);
    expect(existsSync(join(p, '.kitbash', 'skills', 'top'))).toBe(false);
    const yes = inTerminal(p, ['install', 'file:./v/top', '--no-compile'], 'YES\n');
    expect(yes.out).toContain('installed top@1.0.0 and 1 dependency');
    expect(yes.code).toBe(0);
    const rm = inTerminal(p, ['remove', 'top', '--no-compile'], 'y\n');
    expect(rm.out).toContain('lib was installed only for top and nothing else needs it. Remove it too? [y/N]');
    expect(rm.out).toContain('removed top');
    expect(rm.out).toContain('removed lib');
    expect(existsSync(join(p, '.kitbash', 'skills', 'lib'))).toBe(false);
  });
});
