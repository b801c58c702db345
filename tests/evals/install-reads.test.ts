/** What a trial shows of an agent installed under the home folder (npm, nvm, volta, ~/.local/bin). */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentInstall, installedPackage, shebangInterpreter } from '../../main/services/evals/install-reads';
import { refusal } from '../../main/services/evals/trial';
import { findRunner, readRunners, versionWarning } from '../../shared/evals/runners';
import { cleanup, tempDir } from '../sandbox/helpers';

afterAll(cleanup);

const file = (p: string, text: string, mode = 0o755): string => {
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  chmodSync(p, mode);
  return p;
};

describe('agentInstall', () => {
  it('runs an npm symlink by its real path and shows its whole node_modules, not the home', () => {
    const home = tempDir('skillsmith-home-');
    const nm = join(home, '.nvm/versions/node/v20/lib/node_modules');
    file(join(home, '.nvm/versions/node/v20/bin/node'), '\x7fELF');
    const real = file(join(nm, '@openai/codex/bin/codex.js'), '#!/usr/bin/env node\nimport("./x.js")\n');
    const bin = join(home, '.nvm/versions/node/v20/bin');
    symlinkSync('../lib/node_modules/@openai/codex/bin/codex.js', join(bin, 'codex'));
    const got = agentInstall(join(bin, 'codex'), '/project', bin, [home]);
    expect(got.executable).toBe(real);
    expect(got.reads).toEqual([real, nm, bin]);
    expect(got.reads).not.toContain(home);
  });

  it('shows only the file when its folder is a home or holds one', () => {
    const home = tempDir('skillsmith-home-');
    const agent = file(join(home, 'agent'), '\x7fELF binary');
    expect(agentInstall(agent, '/project', '', [home]).reads).toEqual([agent]);
    expect(agentInstall(agent, '/project', '', [join(home, 'sub')]).reads).toEqual([agent]);
  });

  it('reads the interpreter from #! lines, env or direct, and none from a binary', () => {
    const d = tempDir('skillsmith-shebang-');
    expect(shebangInterpreter(file(join(d, 'a'), '#!/usr/bin/env -S node --no-warnings\n'))).toBe('node');
    expect(shebangInterpreter(file(join(d, 'b'), '#!/usr/bin/python3 -u\n'))).toBe('/usr/bin/python3');
    expect(shebangInterpreter(file(join(d, 'c'), '\x7fELF'))).toBeUndefined();
    expect(shebangInterpreter(join(d, 'missing'))).toBeUndefined();
  });
});

describe('refusal', () => {
  it("names the network namespace's own reason when bwrap works but the network does not", () => {
    const msg = refusal(['network'], {
      backend: 'bubblewrap',
      works: true,
      netns: { works: false, reason: 'pasta (Debian package passt) is not installed (no /usr/bin/pasta)' },
    } as never);
    expect(msg).toBe(
      'the sandbox cannot hold network here — no private network: pasta (Debian package passt) is not installed (no /usr/bin/pasta); evals run only sandboxed',
    );
    expect(msg).not.toMatch(/bubblewrap is not available/);
  });
});

describe('the agent version a preset was verified with', () => {
  const claude = findRunner([], 'claude-code')!;
  it('reads the npm package an agent belongs to, and nothing outside node_modules', () => {
    const d = tempDir('skillsmith-pkg-');
    const pkg = join(d, 'lib/node_modules/@anthropic-ai/claude-code');
    file(join(pkg, 'package.json'), JSON.stringify({ name: '@anthropic-ai/claude-code', version: '2.1.197' }), 0o644);
    const exe = file(join(pkg, 'bin/claude.exe'), '\x7fELF');
    expect(installedPackage(exe)).toEqual({ name: '@anthropic-ai/claude-code', version: '2.1.197' });
    file(join(d, 'package.json'), JSON.stringify({ name: 'outside', version: '1.0.0' }), 0o644);
    expect(installedPackage(file(join(d, 'bin/claude'), '\x7fELF'))).toBeUndefined();
  });

  it('warns for a version it was not verified with, or one it cannot tell, and not otherwise', () => {
    expect(versionWarning(claude, { name: '@anthropic-ai/claude-code', version: '2.1.197' })).toBeUndefined();
    expect(versionWarning(claude, { name: '@anthropic-ai/claude-code', version: '2.2.0' })).toBe(
      'runner claude-code: Claude Code 2.2.0 is not a version this preset was verified with (2.1.197); its output may have changed, so verdicts may read wrong',
    );
    expect(versionWarning(claude, undefined)).toMatch(
      /^runner claude-code: cannot tell which Claude Code version runs/,
    );
    // A runner of one's own, or a preset whose command was replaced, claims no verification.
    const own = readRunners({
      evals: { runners: { mine: { preset: 'claude-code', command: ['./agent', '{task}'] } } },
    });
    expect(own.ok && own.value[0]!.verified).toBe(undefined);
    expect(versionWarning({ ...claude, verified: undefined }, undefined)).toBeUndefined();
  });
});
