/** The writer on a real disk: containment through symlinks, safe pruning, settings refusals, interrupted compiles. */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledDrift, compileProject, planProject } from '../../main/services/compile';
import { builtCliExists } from '../cli/helpers';
import { requireOrSkip, skillsmithBin } from '../support/paths';
import { readTree, writeTree, type Files } from './fixtures';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function tmp(files: Files = {}): string {
  const d = mkdtempSync(join(tmpdir(), 'skillsmith-writer-'));
  made.push(d);
  writeTree(d, files);
  return d;
}

const toml = (name: string, extra = '') =>
  `[skill]\nname = "${name}"\nversion = "1.0.0"\ndescription = "Skill ${name} for the writer tests."\n\n[context]\nbudget = 3000\n${extra}`;
const installed = (name: string, body = `# ${name}\n\nDo ${name}.\n`, extra = ''): Files => ({
  [`.kitbash/skills/${name}/skill.toml`]: toml(name, extra),
  [`.kitbash/skills/${name}/SKILL.md`]: body,
});

describe('writer', () => {
  it('refuses, writing nothing, when an output folder is a symlink leading out of the project', async () => {
    const outside = tmp();
    const root = tmp({ ...installed('esc'), '.claude/.keep': '' });
    mkdirSync(join(root, '.claude'), { recursive: true });
    symlinkSync(outside, join(root, '.claude', 'skills'));
    await expect(compileProject(root)).rejects.toThrow(
      /refusing to write outside the project: \.claude\/skills\/esc\/SKILL\.md/,
    );
    expect(readTree(outside).size).toBe(0);
    expect(existsSync(join(root, 'AGENTS.md'))).toBe(false);
  });

  it('is idempotent: the second compile writes and prunes nothing, and drift is empty', async () => {
    const root = tmp({ ...installed('idem'), '.cursor/.keep': '', '.zed/.keep': '', '.github/.keep': '' });
    const first = await compileProject(root);
    expect(first.applied!.written).toEqual(['.cursor/rules/idem.mdc', '.agents/skills/idem/SKILL.md', 'AGENTS.md']);
    const second = await compileProject(root);
    expect(second.applied).toEqual({ written: [], rewritten: [], removed: [], skipped: [] });
    expect(compiledDrift(root)).toEqual({ drift: [], errors: [] });
    const rule = readFileSync(join(root, '.cursor/rules/idem.mdc'), 'utf8');
    writeFileSync(join(root, '.cursor/rules/idem.mdc'), `${rule}hand edit\n`);
    rmSync(join(root, '.agents/skills/idem/SKILL.md'));
    expect(compiledDrift(root).drift).toEqual([
      { path: '.cursor/rules/idem.mdc', kind: 'differs' },
      { path: '.agents/skills/idem/SKILL.md', kind: 'missing' },
    ]);
    // Without the generated header the file is the user's: compile leaves it, and says the output is not in sync.
    writeFileSync(join(root, '.cursor/rules/idem.mdc'), 'hand written\n');
    const third = await compileProject(root);
    expect(readFileSync(join(root, '.cursor/rules/idem.mdc'), 'utf8')).toBe('hand written\n');
    expect(third.plan.conflicts).toEqual([{ skill: 'idem', path: '.cursor/rules/idem.mdc', targets: ['cursor'] }]);
    expect(compiledDrift(root).drift).toEqual([{ path: '.cursor/rules/idem.mdc', kind: 'differs' }]);
  });

  it('prunes delivered scripts only while they hold the delivered bytes; user files in the folder survive', async () => {
    const extra = '\n[targets]\nrequires = ["scripts"]\n';
    const root = tmp({
      ...installed('sc', undefined, extra),
      '.kitbash/skills/sc/scripts/a.sh': 'echo a\n',
      '.kitbash/skills/sc/scripts/b.sh': 'echo b\n',
      '.claude/.keep': '',
    });
    await compileProject(root);
    expect(readFileSync(join(root, '.claude/skills/sc/scripts/a.sh'), 'utf8')).toBe('echo a\n');
    // b.sh leaves the skill: its copy goes. a.sh is edited by hand: kept when the skill goes.
    rmSync(join(root, '.kitbash/skills/sc/scripts/b.sh'));
    const r = await compileProject(root);
    expect(r.applied!.removed).toEqual(['.claude/skills/sc/scripts/b.sh']);
    writeFileSync(join(root, '.claude/skills/sc/scripts/a.sh'), 'echo edited\n');
    writeFileSync(join(root, '.claude/skills/sc/NOTES.md'), 'mine\n');
    rmSync(join(root, '.kitbash/skills/sc'), { recursive: true });
    writeTree(root, installed('other'));
    const gone = await compileProject(root);
    // The script guard goes with the last skill that had scripts (SPEC D200).
    expect(gone.applied!.removed).toEqual([
      '.claude/skills/sc/.skillsmith-delivered',
      '.claude/skills/sc/SKILL.md',
      '.claude/settings.json',
    ]);
    expect(readFileSync(join(root, '.claude/skills/sc/scripts/a.sh'), 'utf8')).toBe('echo edited\n');
    expect(existsSync(join(root, '.claude/skills/sc/NOTES.md'))).toBe(true);
  });

  it('leaves a settings file with comments byte for byte, and says so', async () => {
    const settings = '{\n  // my editor settings\n  "theme": "x"\n}\n';
    const root = tmp({
      ...installed('ms', undefined, '\n[mcp.servers.ms-srv]\ncommand = "srv"\ntools = ["t"]\n'),
      '.zed/settings.json': settings,
    });
    const r = await compileProject(root);
    expect(readFileSync(join(root, '.zed/settings.json'), 'utf8')).toBe(settings);
    expect(r.plan.warnings).toContain(
      'zed: .zed/settings.json contains comments, which rewriting would delete. Nothing was written — add the MCP servers there by hand, or strip the comments.',
    );
  });

  it('a broken installed skill keeps its outputs (command shims included) and the compile reports it', async () => {
    const root = tmp({
      ...installed('keep', undefined, '\n[triggers]\ncommands = ["/keep-go"]\n'),
      '.claude/.keep': '',
    });
    await compileProject(root);
    writeFileSync(join(root, '.kitbash/skills/keep/skill.toml'), 'not = [valid');
    const before = readTree(root);
    const r = await compileProject(root);
    expect(r.plan.failures.map((f) => f.name)).toEqual(['keep']);
    expect(r.applied!.removed).toEqual([]);
    expect(readTree(root)).toEqual(before);
  });
});

const haveCli = requireOrSkip('the built CLI (npm run build)', builtCliExists());

describe.skipIf(!haveCli)('fault injection: a compile killed mid-way', () => {
  it('leaves every file either as it was or as the finished compile writes it', async () => {
    const files: Files = {
      '.claude/.keep': '',
      '.cursor/.keep': '',
      '.agents/.keep': '',
      'AGENTS.md': '# Mine\n\nuser text\n',
    };
    for (let i = 0; i < 300; i++)
      Object.assign(
        files,
        installed(`skill-${String(i).padStart(3, '0')}`, `# S${i}\n\nversion one ${'text '.repeat(200)}\n`),
      );
    const root = tmp(files);
    await compileProject(root);
    const oldTree = readTree(root);
    for (let i = 0; i < 300; i++)
      writeFileSync(
        join(root, `.kitbash/skills/skill-${String(i).padStart(3, '0')}/SKILL.md`),
        `# S${i}\n\nversion two ${'word '.repeat(300)}\n`,
      );
    const finished = tmp();
    cpSync(root, finished, { recursive: true });
    const t0 = Date.now();
    await compileProject(finished);
    const newTree = readTree(finished);
    const full = Math.max(40, Date.now() - t0);
    expect(planProject(finished).write.every((f) => !f.changed)).toBe(true);

    let interrupted = 0;
    for (const fraction of [0.1, 0.4, 0.7, 1.0, 1.5]) {
      const victim = tmp();
      cpSync(root, victim, { recursive: true });
      const child = spawn(process.execPath, [skillsmithBin, 'compile'], { cwd: victim, stdio: 'ignore' });
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), Math.round(full * fraction) + 60);
        child.on('exit', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      if (code === null) interrupted++;
      const tree = readTree(victim);
      for (const [path, text] of tree) {
        if (/\/\.[^/]+\.\d+\.[0-9a-f]{8}\.tmp$/.test(`/${path}`)) continue; // a staged temp file, never a target
        const ok = text === oldTree.get(path) || text === newTree.get(path);
        expect(ok, `${path} (killed at ${fraction}) is neither old nor new`).toBe(true);
      }
      for (const path of newTree.keys()) expect(tree.has(path) || oldTree.has(path), `${path} missing`).toBe(true);
    }
    expect(interrupted, 'at least one compile was really interrupted').toBeGreaterThan(0);
  }, 180_000);
});
