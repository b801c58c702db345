/**
 * The real-skills corpus (../shared/corpus/real-skills): every skill installed the way
 * install lays it out (.kitbash/skills/<name>/, the folder copied whole, execute bits kept)
 * and compiled with every agent's marker present. For every skill-folder target: every file
 * arrives byte-identical with its execute bit, every frontmatter key survives a YAML round
 * trip with the same value, the body is intact, the compile exits 0, a second compile changes
 * nothing, and hand-written skills are left exactly as they were.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompile } from '../../main/cli/commands/compile';
import { loadSkill } from '../../shared/ksf/load';
import { TARGETS } from '../../shared/targets';
import { DELIVERY_RECORD, GENERATED_MARK } from '../../shared/targets/common';
import { readSkillTree } from '../../main/services/skills/reader';
import { corpusDir, requireOrSkip } from '../support/paths';
import { MARKERS } from './fixtures';

const CORPUS = join(corpusDir, 'real-skills');
const haveCorpus = requireOrSkip('the real-skills corpus (../shared/corpus/real-skills)', existsSync(CORPUS));

interface Source {
  readonly dir: string;
  readonly name: string;
}

function skillFolders(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    const names = readdirSync(dir);
    if (names.includes('SKILL.md')) {
      out.push(dir);
      return;
    }
    for (const n of names.sort()) if (lstatSync(join(dir, n)).isDirectory()) walk(join(dir, n));
  };
  walk(root);
  return out;
}

/** Every regular file under `dir`, relative, '/'-separated. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const abs = join(d, n);
      const st = lstatSync(abs);
      if (st.isDirectory()) walk(abs);
      else if (st.isFile()) out.push(relative(dir, abs).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}

const isExec = (abs: string): boolean => (statSync(abs).mode & 0o111) !== 0;

/** Frontmatter as data, and the text after it (YAML is parsed the way an agent would). */
function splitMd(md: string): { fm: Record<string, unknown> | undefined; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(md);
  if (!m) return { fm: undefined, body: md };
  return { fm: (parse(m[1]!) ?? {}) as Record<string, unknown>, body: md.slice(m[0].length) };
}

async function compileIn(cwd: string, argv: string[] = []): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCompile(argv, { cwd, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!haveCorpus)('compile: the real-skills corpus arrives whole in every agent', () => {
  let sources: Source[] = [];
  let root = '';
  const HAND = '---\nname: mine\ndescription: written by hand\n---\n\nMy own skill.\n';
  let clash = '';
  let first: { code: number; out: string; err: string };

  beforeAll(async () => {
    sources = skillFolders(CORPUS).map((dir) => {
      const tree = readSkillTree(dir, dir);
      if (!tree.ok) throw new Error(tree.error.message);
      const loaded = loadSkill(tree.value);
      if (!loaded.ok) throw new Error(`${dir}: ${loaded.error.message}`);
      return { dir, name: loaded.value.manifest.skill.name };
    });
    root = join(
      mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'skillsmith-real-')),
      'corpus-project',
    );
    made.push(join(root, '..'));
    mkdirSync(root, { recursive: true });
    for (const s of sources) cpSync(s.dir, join(root, '.kitbash', 'skills', s.name), { recursive: true });
    for (const files of Object.values(MARKERS)) {
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(join(root, rel, '..'), { recursive: true });
        writeFileSync(join(root, rel), text);
      }
    }
    // Hand-written skills: one beside the installed ones, one where an installed skill would go.
    clash = sources[0]!.name;
    mkdirSync(join(root, '.claude/skills/mine'), { recursive: true });
    writeFileSync(join(root, '.claude/skills/mine/SKILL.md'), HAND);
    mkdirSync(join(root, '.claude/skills', clash, 'notes'), { recursive: true });
    writeFileSync(join(root, '.claude/skills', clash, 'SKILL.md'), HAND);
    writeFileSync(join(root, '.claude/skills', clash, 'notes/keep.md'), 'mine\n');
    first = await compileIn(root);
  }, 300_000);

  it('holds the whole corpus, and compile exits 0 without a refusal or a failed skill', () => {
    expect(sources.length).toBe(185);
    expect(first.err).not.toMatch(/✗/);
    expect(first.code).toBe(0);
  });

  const FOLDER_TARGETS = TARGETS.filter((t) => t.skillDir !== undefined);

  it('delivers every file of every skill byte-identical, with its execute bit, to every skill folder written', () => {
    const dirs = [...new Set(FOLDER_TARGETS.map((t) => t.skillDir!))].filter((d) => existsSync(join(root, d)));
    // .github/skills and .gemini/skills are served by .agents/skills here (D38); they are checked below.
    expect(dirs.sort()).toEqual(['.agents/skills', '.claude/skills', 'agent-plugin/skills']);
    let files = 0;
    let executables = 0;
    for (const dir of dirs) {
      for (const s of sources) {
        if (dir === '.claude/skills' && s.name === clash) continue;
        const out = join(root, dir, s.name);
        for (const rel of filesUnder(s.dir)) {
          if (rel === 'SKILL.md') continue;
          const got = join(out, rel);
          expect(existsSync(got), `${dir}/${s.name}/${rel}`).toBe(true);
          expect(readFileSync(got).equals(readFileSync(join(s.dir, rel))), `${dir}/${s.name}/${rel} bytes`).toBe(true);
          expect(isExec(got), `${dir}/${s.name}/${rel} execute bit`).toBe(isExec(join(s.dir, rel)));
          files++;
          if (isExec(got)) executables++;
        }
        const extra = filesUnder(out).filter(
          (r) => r !== 'SKILL.md' && r !== DELIVERY_RECORD && !existsSync(join(s.dir, r)),
        );
        expect(extra, `${dir}/${s.name}: nothing invented`).toEqual([]);
      }
    }
    expect(files).toBeGreaterThan(1000);
    expect(executables).toBeGreaterThan(0);
  });

  it('keeps every frontmatter key with its value, and the body intact, in every SKILL.md written', () => {
    let keys = 0;
    for (const dir of ['.claude/skills', '.agents/skills', 'agent-plugin/skills']) {
      for (const s of sources) {
        if (dir === '.claude/skills' && s.name === clash) continue;
        const src = splitMd(readFileSync(join(s.dir, 'SKILL.md'), 'utf8'));
        const got = splitMd(readFileSync(join(root, dir, s.name, 'SKILL.md'), 'utf8'));
        expect(got.fm, `${dir}/${s.name}`).toEqual({ ...src.fm, name: s.name });
        keys += Object.keys(src.fm ?? {}).length;
        const headerEnd = got.body.indexOf('-->\n\n');
        expect(got.body.slice(0, headerEnd), `${dir}/${s.name}: header`).toContain(GENERATED_MARK);
        expect(got.body.slice(headerEnd + 5).replace(/\n$/, ''), `${dir}/${s.name}: body`).toBe(
          src.body.trimStart().replace(/\n$/, ''),
        );
      }
    }
    expect(keys).toBeGreaterThan(3 * 185 * 2);
  });

  it('leaves hand-written skills exactly as they were, and says how to resolve the clash', () => {
    expect(readFileSync(join(root, '.claude/skills/mine/SKILL.md'), 'utf8')).toBe(HAND);
    expect(readFileSync(join(root, '.claude/skills', clash, 'SKILL.md'), 'utf8')).toBe(HAND);
    expect(filesUnder(join(root, '.claude/skills', clash))).toEqual(['SKILL.md', 'notes/keep.md']);
    expect(first.out).toContain(`⚠ ${clash} → claude-code: .claude/skills/${clash} was not written by Skillsmith`);
    expect(first.out).toContain('Adopt it (skillsmith import --write), rename one of them, or remove');
  });

  it('a second compile writes, rewrites and removes nothing', async () => {
    const again = await compileIn(root);
    expect(again.code).toBe(0);
    expect(again.out.split('\n').filter((l) => /^(→|✂)/.test(l))).toEqual([]);
  });

  it('copilot and gemini folders (written when no .agents/skills target is active) get the same whole folders', async () => {
    const alt = join(mkdtempSync(join(tmpdir(), 'skillsmith-real-alt-')), 'p');
    made.push(join(alt, '..'));
    mkdirSync(alt, { recursive: true });
    for (const s of sources.slice(0, 40)) cpSync(s.dir, join(alt, '.kitbash', 'skills', s.name), { recursive: true });
    writeFileSync(join(alt, 'kitbash.toml'), '[project]\ntargets = ["copilot", "gemini"]\n');
    expect((await compileIn(alt)).code).toBe(0);
    for (const dir of ['.github/skills', '.gemini/skills']) {
      for (const s of sources.slice(0, 40)) {
        for (const rel of filesUnder(s.dir)) {
          if (rel === 'SKILL.md') continue;
          expect(
            readFileSync(join(alt, dir, s.name, rel)).equals(readFileSync(join(s.dir, rel))),
            `${dir}/${s.name}/${rel}`,
          ).toBe(true);
        }
        const src = splitMd(readFileSync(join(s.dir, 'SKILL.md'), 'utf8'));
        expect(splitMd(readFileSync(join(alt, dir, s.name, 'SKILL.md'), 'utf8')).fm).toEqual({
          ...src.fm,
          name: s.name,
        });
      }
    }
    expect((await compileIn(alt)).out.split('\n').filter((l) => /^(→|✂)/.test(l))).toEqual([]);
  });
});
