/**
 * Differential compile against kitbash 0.24.1: both tools compile copies of the same
 * fixture project, in every combination of the ten detectable targets' markers and under
 * several [project].targets lists, and the trees must be identical byte for byte except
 * for the documented differences (spec/SPEC.md, §14, D38–D47 and D50–D51), each of which is
 * asserted to really occur where it is claimed. Skillsmith's second compile must change
 * nothing; kitbash's second compile is shown converging on Skillsmith's first.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProject } from '../../main/services/compile';
import { DELIVERY_RECORD } from '../../shared/targets/common';
import { kitbashEntry, requireOrSkip } from '../support/paths';
import {
  ALTERNATE_MARKERS,
  DETECTABLE,
  MARKERS,
  readTree,
  SKILLS,
  USER_FILES,
  writeTree,
  type Files,
} from './fixtures';

const haveKitbash = requireOrSkip('the kitbash reference CLI (node_modules/kitbash)', existsSync(kitbashEntry));

type KitbashCompile = (args: string[]) => Promise<number>;
let kitbashCompile: KitbashCompile;

async function runKitbashIn(dir: string): Promise<number> {
  const cwd = process.cwd();
  const log = console.log;
  const err = console.error;
  console.log = () => {};
  console.error = () => {};
  try {
    process.chdir(dir);
    return await kitbashCompile([]);
  } finally {
    process.chdir(cwd);
    console.log = log;
    console.error = err;
  }
}

/** Scratch space: a RAM disk when there is one (the sweep creates thousands of small files). */
const scratch = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * Skillsmith's tree with its documented additions taken out — after checking that each is
 * present wherever it is claimed (so a difference cannot silently disappear).
 */
function withoutOurAdditions(tree: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  // D200: where scripts reach Claude Code, its settings hold the script guard, and only that.
  const guarded = [...tree.keys()]
    .filter((p) => /^\.claude\/skills\/[^/]+\/(?!SKILL\.md$|\.skillsmith-delivered$)/.test(p))
    .map((p) => p.split('/')[2]!);
  expect(tree.has('.claude/settings.json'), 'the script guard is there exactly when scripts are (D200)').toBe(
    guarded.length > 0,
  );
  for (const [path, text] of tree) {
    if (path === '.claude/settings.json') {
      const hooks = (JSON.parse(text) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }).hooks;
      expect(Object.keys(hooks), `${path}: the guard alone (D200)`).toEqual(['PreToolUse']);
      expect(hooks.PreToolUse).toHaveLength(1);
      for (const name of guarded)
        expect(hooks.PreToolUse[0]!.hooks[0]!.command).toContain(
          `*${`skills/${name}`.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`)}*`,
        );
      continue;
    }
    // D50: the whole skill folder arrives beside SKILL.md (skill.toml excepted), with its delivery record.
    const folder = /^(?:\.claude|\.agents|\.github|\.gemini|agent-plugin)\/skills\/([^/]+)\/(.+)$/.exec(path);
    if (folder && folder[2] !== 'SKILL.md') {
      const [, name, rel] = folder;
      expect(
        existsSync(join(FIXTURE_SKILLS, name!, rel === DELIVERY_RECORD ? 'SKILL.md' : rel!)),
        `${path}: delivered from the skill folder (D50)`,
      ).toBe(true);
      if (rel === DELIVERY_RECORD) {
        const listed = text
          .split('\n')
          .slice(1, -1)
          .map((l) => l.split(' ')[1]);
        expect(listed, `${path}: names every delivered file (D50)`).toEqual(DELIVERED[name!]);
      } else
        expect(
          tree.has(`${path.slice(0, path.length - rel!.length)}${DELIVERY_RECORD}`),
          `${path}: recorded (D50)`,
        ).toBe(true);
      continue;
    }
    let t = text;
    // D51: a bare skill's own frontmatter is delivered as written (kitbash re-quotes the description).
    if (/\/skills\/delta\/SKILL\.md$/.test(path)) {
      expect(t, `${path}: frontmatter as written (D51)`).toMatch(
        /^---\nname: delta\ndescription: A bare skill with frontmatter only\.\n---\n/,
      );
      t = t.replace(
        'description: A bare skill with frontmatter only.',
        'description: "A bare skill with frontmatter only."',
      );
    }
    // D40: allowed-tools lowered on Claude Code and Copilot skills.
    const lowered =
      path === '.claude/skills/beta/SKILL.md'
        ? 'Read, Grep, Bash(git diff *)'
        : path === '.github/skills/beta/SKILL.md'
          ? 'Read Grep'
          : undefined;
    if (lowered) {
      expect(t, `${path}: allowed-tools (D40)`).toContain(`\nallowed-tools: ${lowered}\n`);
      t = t.replace(`\nallowed-tools: ${lowered}\n`, '\n');
    }
    out.set(path, t);
  }
  return out;
}

/** The fixture skills as files on disk, to check delivered files against (written once). */
const FIXTURE_SKILLS = join(
  mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'skillsmith-fixture-')),
  'skills',
);
writeTree(
  FIXTURE_SKILLS,
  Object.fromEntries(Object.entries(SKILLS).map(([k, v]) => [k.replace(/^\.kitbash\/skills\//, ''), v])),
);
/** What each fixture skill's delivery record lists (every file but SKILL.md and skill.toml). */
const DELIVERED: Record<string, string[]> = {
  gamma: ['scripts/check.sh', 'scripts/lib/util.sh'],
  eps: ['prompts/intro.md'],
};

/** kitbash's tree with the reference bugs Skillsmith fixes replaced by the fixed output. */
function withReferenceFixes(tree: Map<string, string>, active: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  // D38: with zed or cline but not agents, kitbash still writes the copilot/gemini copies on the first compile.
  const agentsDir = active.some((t) => t === 'agents' || t === 'zed' || t === 'cline');
  const dropAliases = agentsDir && !active.includes('agents');
  for (const [path, text] of tree) {
    if (dropAliases && (path.startsWith('.github/skills/') || path.startsWith('.gemini/skills/'))) continue;
    // D6: a manifested skill's own frontmatter is not part of its body.
    out.set(path, text.replace('---\nname: fm-skill\ndescription: its own frontmatter\n---\n\n# FM', '# FM'));
  }
  return out;
}

/** A fixture project at <tmp>/<random>/demo-project (the folder name is the plugin name). */
function project(files: Files, skills: Files = SKILLS): string {
  const dir = join(mkdtempSync(join(scratch, 'skillsmith-diff-')), 'demo-project');
  writeTree(dir, { ...skills, ...USER_FILES, ...files });
  return dir;
}

/** The same project under another parent, with the same folder name. */
function twin(dir: string): string {
  const copy = join(mkdtempSync(join(scratch, 'kitbash-diff-')), 'demo-project');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Targets whose skill folder serves AGENTS.md's readers: with one active, AGENTS.md is an index (D55). */
const INDEXING = ['agents', 'zed', 'cline', 'copilot', 'gemini'];
const SECTION = /<!-- kitbash:begin ([a-z0-9-]+) -->\n([\s\S]*?)\n<!-- kitbash:end \1 -->/g;

/** AGENTS.md with each lazily disclosed skill's section reduced to its name (after checking ours is the index line). */
function indexed(text: string, ours: boolean): string {
  return text.replace(SECTION, (whole, name: string, inner: string) => {
    if (name === 'eps') return whole; // disclosure = "eager": the body stays, as its author asked
    if (ours)
      expect(inner, `AGENTS.md section ${name}: index line (D55)`).toMatch(
        new RegExp(`^- \\*\\*${name}\\*\\* \\(\`(?:\\.agents|\\.github|\\.gemini)/skills/${name}/SKILL\\.md\`\\): \\S`),
      );
    return `<!-- section ${name} -->`;
  });
}

function compare(active: readonly string[], ours: Map<string, string>, theirs: Map<string, string>): void {
  const a = withoutOurAdditions(ours);
  const b = withReferenceFixes(theirs, active);
  if (active.some((t) => INDEXING.includes(t))) {
    for (const [m, isOurs] of [
      [a, true],
      [b, false],
    ] as const)
      if (m.has('AGENTS.md')) m.set('AGENTS.md', indexed(m.get('AGENTS.md')!, isOurs));
  }
  const onlyOurs = [...a.keys()].filter((k) => !b.has(k));
  const onlyTheirs = [...b.keys()].filter((k) => !a.has(k));
  const differ = [...a.keys()].filter((k) => b.has(k) && a.get(k) !== b.get(k));
  expect({ onlyOurs, onlyTheirs, differ }).toEqual({ onlyOurs: [], onlyTheirs: [], differ: [] });
}

const made: string[] = [dirname(FIXTURE_SKILLS)];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!haveKitbash)('compile: byte compatibility with kitbash 0.24.1', () => {
  beforeAll(async () => {
    const mod = (await import(join(dirname(kitbashEntry), 'commands.js'))) as { cmdCompile: KitbashCompile };
    kitbashCompile = mod.cmdCompile;
  });

  const combos: string[][] = [];
  for (let mask = 0; mask < 1 << DETECTABLE.length; mask++) combos.push(DETECTABLE.filter((_, i) => mask & (1 << i)));

  /** Compile one marker combination with both tools and compare; returns nothing, throws with the combination named. */
  async function agreeOn(
    active: readonly string[],
    skills: Files,
    durable = true,
    extra: Files = {},
    primary = true,
  ): Promise<void> {
    const files: Files = {};
    if (primary) for (const t of active) Object.assign(files, MARKERS[t]);
    Object.assign(files, extra);
    const ours = project(files, skills);
    const theirs = twin(ours);
    made.push(dirname(ours), dirname(theirs));
    const label = active.join(', ') || '(none)';
    try {
      const r = await compileProject(ours, { durable });
      expect(r.plan.errors).toEqual([]);
      expect(await runKitbashIn(theirs), 'kitbash exit').toBe(0);
      const first = readTree(ours);
      compare([...active, 'agentsmd'], first, readTree(theirs));
      // Idempotent from the first run (D38): nothing to write, nothing to prune.
      const again = await compileProject(ours, { durable });
      expect(
        [...again.applied!.written, ...again.applied!.removed, ...again.applied!.rewritten],
        'second compile',
      ).toEqual([]);
      expect(readTree(ours)).toEqual(first);
      // Where kitbash is not idempotent, its second compile converges on our first tree.
      if (active.some((t) => t === 'zed' || t === 'cline') && !active.includes('agents')) {
        await runKitbashIn(theirs);
        compare([...active, 'agentsmd', 'agents'], first, readTree(theirs));
      }
    } catch (e) {
      throw new Error(`markers: ${label}\n${(e as Error).message}`);
    } finally {
      rmSync(dirname(ours), { recursive: true, force: true });
      rmSync(dirname(theirs), { recursive: true, force: true });
    }
  }

  it(`agrees in all ${combos.length} marker combinations (commands, scripts, MCP skills), idempotent from the first compile`, async () => {
    const light = Object.fromEntries(Object.entries(SKILLS).filter(([k]) => /\/(alpha|gamma|mcp-user)\//.test(k)));
    // Throw-away projects: skip fsync (the bytes and renames are the same; durability is not under test here).
    for (const active of combos) await agreeOn(active, light, false);
  }, 900_000);

  it("agrees with each target's alternative markers (.codex, .cline, .windsurf, GEMINI.md, .aider.conf.yml, plugin.json)", async () => {
    for (const [label, files] of Object.entries(ALTERNATE_MARKERS)) {
      const id = label.split(' ')[0]!;
      await agreeOn([id], SKILLS, true, files, false).catch((e: Error) => {
        throw new Error(`${label}: ${e.message}`);
      });
    }
    // Everything at once, with the alternative markers on top of the primary ones.
    await agreeOn(DETECTABLE, SKILLS, true, Object.assign({}, ...Object.values(ALTERNATE_MARKERS)) as Files);
  }, 300_000);

  it('agrees on the full fixture with no markers, each single marker, and all markers', async () => {
    for (const active of [[], ...DETECTABLE.map((t) => [t]), DETECTABLE]) await agreeOn(active, SKILLS);
  }, 300_000);

  const LISTS: string[][] = [
    ['zed', 'copilot'],
    ['cline', 'gemini', 'aider'],
    ['agents', 'cursor', 'agent-plugins'],
    ['agentsmd'],
    [
      'claude-code',
      'cursor',
      'agents',
      'zed',
      'copilot',
      'cline',
      'windsurf',
      'gemini',
      'aider',
      'agentsmd',
      'agent-plugins',
    ],
  ];
  for (const list of LISTS) {
    it(`agrees with [project].targets = [${list.join(', ')}] and no markers`, async () => {
      const ours = project({ 'kitbash.toml': `[project]\ntargets = [${list.map((t) => `"${t}"`).join(', ')}]\n` });
      const theirs = twin(ours);
      made.push(dirname(ours), dirname(theirs));
      expect((await compileProject(ours)).plan.errors).toEqual([]);
      expect(await runKitbashIn(theirs)).toBe(0);
      compare(list, readTree(ours), readTree(theirs));
      const again = await compileProject(ours);
      expect([...again.applied!.written, ...again.applied!.removed, ...again.applied!.rewritten]).toEqual([]);
    });
  }

  it('both refuse an empty [project].targets with skills installed, writing nothing', async () => {
    const ours = project({ 'kitbash.toml': '[project]\ntargets = []\n' });
    const theirs = twin(ours);
    made.push(dirname(ours), dirname(theirs));
    const before = readTree(ours);
    const r = await compileProject(ours);
    expect(r.plan.errors[0]).toMatch(
      /^no compile targets resolved, but 8 skill\(s\) are installed — refusing to compile/,
    );
    expect(await runKitbashIn(theirs)).toBe(1);
    expect(readTree(ours)).toEqual(before);
    expect(readTree(theirs)).toEqual(before);
  });

  it('agrees after a skill is removed (prune), apart from the blank-line residue kitbash leaves (D41)', async () => {
    const files: Files = { ...MARKERS.cursor, ...MARKERS.aider, ...MARKERS['claude-code'] };
    const ours = project(files);
    const theirs = twin(ours);
    made.push(dirname(ours), dirname(theirs));
    await compileProject(ours);
    await runKitbashIn(theirs);
    for (const dir of [ours, theirs]) rmSync(join(dir, '.kitbash/skills/tidy--name'), { recursive: true });
    const r = await compileProject(ours);
    expect(r.applied!.removed).toEqual(
      expect.arrayContaining(['.cursor/rules/tidy--name.mdc', '.claude/skills/tidy--name/SKILL.md']),
    );
    await runKitbashIn(theirs);
    const a = readTree(ours);
    const b = readTree(theirs);
    // kitbash leaves the blank lines that separated the removed section from the one before it.
    for (const f of ['AGENTS.md', 'CONVENTIONS.md']) {
      expect(b.get(f)).toMatch(/-->\n\n$/);
      expect(a.get(f)).toMatch(/-->\n$/);
      b.set(f, b.get(f)!.replace(/\n+$/, '\n'));
    }
    compare(['cursor', 'aider', 'claude-code', 'agentsmd'], a, b);
    expect(a.get('AGENTS.md')!.startsWith(USER_FILES['AGENTS.md']!.trimEnd())).toBe(true);
  });
});
