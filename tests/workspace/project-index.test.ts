/**
 * The project index (what install reads about the rest of the project, kept instead of
 * re-read) and the plan the review makes for the recompile: an entry is used only while
 * the disk still says what it said, a hand edit of any size is read again, a corrupt or
 * foreign index file is ignored and rewritten, and everything read through the index,
 * the parse cache and the async disk view is exactly what the direct readers give.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadInstalled, planProject } from '../../main/services/compile';
import { parsedFormOf, readLock, readLockAsync, skillIntegrity } from '../../main/services/lock';
import { cacheDir } from '../../main/services/skills/index-file';
import { readInstalled } from '../../main/services/skills/installed';
import { ProjectIndex } from '../../main/services/skills/project-index';
import { planChange, stillHolds } from '../../main/services/workspace/recompile';
import { dropWritten } from '../../main/services/compile/written-record';
import { parseLock, serializeLock, type LockEntry } from '../../shared/lock/lockfile';
import type { CompilePlan } from '../../shared/compile/plan';
import { MARKERS, SKILLS, USER_FILES } from '../compile/fixtures';
import { cleanupTemps, cli, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

beforeEach(() => {
  process.env.SKILLSMITH_CACHE_DIR = temp('skillsmith-cache-');
});

/** Stamps younger than a file-system tick are never trusted: wait until the project's have settled. */
const settle = () => new Promise((r) => setTimeout(r, 2700));

const indexFile = (dir: string) => {
  const files = readdirSync(dir).filter((n) => n.endsWith('.json'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]!);
};

function project(skills: string[]): string {
  const p = temp('skillsmith-index-');
  write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
  for (const s of skills) write(p, skillFiles(`.kitbash/skills/${s}`, s, { version: '1.0.0' }));
  return p;
}

describe('installed-skill summaries', () => {
  it('come from the index while a folder is unchanged; a same-size hand edit, its mtime put back, is read again', async () => {
    const p = project(['alpha', 'beta']);
    await settle();
    const first = await ProjectIndex.open(p);
    expect((await first.summaries()).map((s) => s.ok && `${s.summary.name}@${s.summary.version}`)).toEqual([
      'alpha@1.0.0',
      'beta@1.0.0',
    ]);
    await first.save();

    // Prove the next command trusts the entry: a version only the index holds comes back.
    const file = indexFile(join(cacheDir(), 'skill-index'));
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.skills.alpha.summary.version = '9.9.9';
    writeFileSync(file, JSON.stringify(data));
    const trusted = await (await ProjectIndex.open(p)).summaries();
    expect(trusted[0]!.ok && trusted[0]!.summary.version).toBe('9.9.9');

    // The same number of bytes, the old mtime restored: the ctime still tells.
    const toml = join(p, '.kitbash/skills/alpha/skill.toml');
    const before = statSync(toml);
    writeFileSync(toml, readFileSync(toml, 'utf8').replace('version = "1.0.0"', 'version = "1.0.1"'));
    utimesSync(toml, before.atime, before.mtime);
    expect(statSync(toml).size).toBe(before.size);
    const edited = await ProjectIndex.open(p);
    const again = await edited.summaries();
    expect(again.map((s) => s.ok && `${s.summary.name}@${s.summary.version}`)).toEqual(['alpha@1.0.1', 'beta@1.0.0']);
    await edited.save();
    // What the next command finds for alpha is the edit (kept once its stamp settled), never the stale entry.
    const kept = JSON.parse(readFileSync(file, 'utf8')).skills.alpha;
    expect(kept === undefined || kept.summary.version === '1.0.1').toBe(true);
  });

  it('a removed folder leaves the index; a folder that does not load is summarised as why', async () => {
    const p = project(['alpha', 'beta']);
    write(p, {
      '.kitbash/skills/gamma/SKILL.md': '# no manifest, no frontmatter name\n',
      '.kitbash/skills/gamma/skill.toml': 'not toml [',
    });
    await settle();
    const i = await ProjectIndex.open(p);
    const s = await i.summaries();
    expect(s.map((x) => x.loc.nameHint)).toEqual(['alpha', 'beta', 'gamma']);
    expect(s[2]!.ok ? '' : s[2]!.message).toMatch(/^\.kitbash\/skills\/gamma\/skill\.toml:1:\d+: invalid TOML/);
    await i.save();
    rmSync(join(p, '.kitbash/skills/beta'), { recursive: true });
    const j = await ProjectIndex.open(p);
    expect((await j.summaries()).map((x) => x.loc.nameHint)).toEqual(['alpha', 'gamma']);
    await j.save();
    expect(
      Object.keys(JSON.parse(readFileSync(indexFile(join(cacheDir(), 'skill-index')), 'utf8')).skills).sort(),
    ).toEqual(['alpha', 'gamma']);
  });

  it('a corrupt, truncated or foreign index file is ignored, and rewritten whole', async () => {
    const p = project(['alpha']);
    await settle();
    const i = await ProjectIndex.open(p);
    await i.summaries();
    await i.save();
    const file = indexFile(join(cacheDir(), 'skill-index'));
    const good = readFileSync(file, 'utf8');
    for (const bad of [
      '\u0000\u0001garbage',
      good.slice(0, good.length / 2),
      good.replace(/"engine":"[^"]+"/, '"engine":"0.0.0/0"'),
      good.replace(/"root":"[^"]+"/, '"root":"/elsewhere"'),
      JSON.stringify({ ...JSON.parse(good), skills: { alpha: { stamp: 7, summary: null } } }),
    ]) {
      writeFileSync(file, bad);
      const again = await ProjectIndex.open(p);
      const s = await again.summaries();
      expect(s[0]!.ok && s[0]!.summary).toEqual({ name: 'alpha', version: '1.0.0', dependencies: {} });
      await again.save();
      expect(JSON.parse(readFileSync(file, 'utf8')).skills.alpha.summary.name).toBe('alpha');
    }
  });

  it('two commands saving at once leave one whole file, and no temp file behind', async () => {
    const p = project(['alpha', 'beta']);
    await settle();
    const [a, b] = await Promise.all([ProjectIndex.open(p), ProjectIndex.open(p)]);
    await Promise.all([a.summaries(), b.summaries()]);
    await Promise.all([a.save(), b.save()]);
    const dir = join(cacheDir(), 'skill-index');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(Object.keys(JSON.parse(readFileSync(indexFile(dir), 'utf8')).skills).sort()).toEqual(['alpha', 'beta']);
  });

  it('a cache folder that cannot be written costs only the speed-up', async () => {
    const p = project(['alpha']);
    // A file where the cache folder should be: no one, root included, can make a folder under it.
    const blocker = join(temp('skillsmith-cache-blocked-'), 'file');
    writeFileSync(blocker, 'not a folder');
    process.env.SKILLSMITH_CACHE_DIR = join(blocker, 'cache');
    const i = await ProjectIndex.open(p);
    expect((await i.summaries())[0]!.ok).toBe(true);
    await expect(i.save()).resolves.toBeUndefined();
    expect(statSync(blocker).isFile()).toBe(true);
  });
});

describe('the parsed lock', () => {
  it('is what readLock parses; a lock changed by hand is parsed again', async () => {
    const p = project([]);
    const entries: LockEntry[] = [
      { name: 'b', version: '1.0.0', source: 'file:./b', integrity: 'sha256-b', executable: [] },
      {
        name: 'a',
        version: '2.0.0',
        source: 'gh:o/r/a@abc',
        integrity: 'sha256-a',
        resolved: 'gh:o/r/a',
        direct: false,
        requested: ['b: ^2'],
      },
    ];
    writeFileSync(join(p, 'kitbash.lock'), serializeLock(entries));
    const i = await ProjectIndex.open(p);
    const direct = readLock(p);
    expect(await i.lock()).toStrictEqual(direct.ok && direct.value);
    await i.save();
    const file = indexFile(join(cacheDir(), 'skill-index'));
    expect(JSON.parse(readFileSync(file, 'utf8')).lock.sha).toMatch(/^[0-9a-f]{64}$/);

    writeFileSync(join(p, 'kitbash.lock'), readFileSync(join(p, 'kitbash.lock'), 'utf8').replace('"2.0.0"', '"2.0.1"'));
    const edited = await (await ProjectIndex.open(p)).lock();
    expect(edited.entries.find((e) => e.name === 'a')!.version).toBe('2.0.1');
    const again = await readLockAsync(p);
    expect(edited).toStrictEqual(again.ok && again.value);
  });

  it("the recompile's plan reads the lock through the index (the last two parsed), and a pin edited by hand is read again", async () => {
    const p = project(['alpha', 'beta']);
    const pin = (name: string) => {
      const i = skillIntegrity(join(p, '.kitbash/skills', name));
      if (!i.ok) throw new Error('fixture');
      return { name, version: '1.0.0', source: `file:./${name}`, integrity: i.value, executable: [] };
    };
    writeFileSync(join(p, 'kitbash.lock'), serializeLock([pin('alpha'), pin('beta')]));
    expect((await planChange(p)).plan.withheld).toEqual([]);

    // Prove the plan trusts the index's parse while the lock's bytes are the same: a pin only the index holds counts.
    const file = indexFile(join(cacheDir(), 'skill-index'));
    const data = JSON.parse(readFileSync(file, 'utf8'));
    data.lock.entries.find((e: LockEntry) => e.name === 'beta').integrity = 'sha256-onlyInTheIndex';
    writeFileSync(file, JSON.stringify(data));
    expect((await planChange(p)).plan.withheld.map((w) => w.name)).toEqual(['beta']);

    // The lock edited by hand (alpha's pin no longer its folder's): parsed again, alpha withheld, beta delivered.
    const edited = readFileSync(join(p, 'kitbash.lock'), 'utf8').replace(pin('alpha').integrity, 'sha256-edited');
    const original = readFileSync(join(p, 'kitbash.lock'));
    writeFileSync(join(p, 'kitbash.lock'), edited);
    expect((await planChange(p)).plan.withheld.map((w) => w.name)).toEqual(['alpha']);

    // The first lock's bytes back (a checkout, an undo): answered from the parse kept before the last one.
    writeFileSync(join(p, 'kitbash.lock'), original);
    expect((await planChange(p)).plan.withheld.map((w) => w.name)).toEqual(['beta']);
  });

  it('what a command writes is what the next one would parse (parsedFormOf against parseLock ∘ serializeLock)', () => {
    const strings = [
      'x',
      '',
      'sp ace',
      'quo"te',
      'back\\slash',
      'tab\tnl\nend',
      'é ü 漢字 😀',
      '\u0001\u007f',
      'a=b # c',
    ];
    const pick = (i: number) => strings[i % strings.length]!;
    for (let n = 0; n < 60; n++) {
      const entries: LockEntry[] = Array.from({ length: 1 + (n % 4) }, (_, i) => ({
        name: `s${n}-${i}`,
        version: pick(n + i),
        source: pick(n * 3 + i),
        integrity: pick(n * 5 + i),
        ...(n % 2 ? { resolved: pick(n + 2) } : {}),
        ...(n % 3 === 0 ? { commit: pick(n + 4) } : {}),
        ...(n % 5 ? { dependencies: n % 4 ? [pick(n), pick(n + 1)] : [] } : {}),
        ...(n % 7 ? { requested: n % 2 ? [pick(n + 6)] : [] } : {}),
        ...(n % 3 === 1 ? { direct: false } : n % 3 === 2 ? { direct: true } : {}),
        ...(n % 4 ? { executable: ['z.sh', 'a.sh', pick(n)].slice(0, n % 4) } : {}),
      }));
      const parsed = parseLock(serializeLock(entries));
      expect(parsed.ok).toBe(true);
      expect(parsedFormOf(entries)).toStrictEqual(parsed.ok && parsed.value);
    }
    // Every field a lock entry can carry, so that a field added to LockEntry without a place in
    // parsedFormOf does not compile here (Required) or fails below.
    const full: Required<LockEntry> = {
      name: 'full',
      version: '1.0.0',
      source: 'gh:o/r',
      integrity: 'sha256-x',
      resolved: 'https://github.com/o/r.git',
      upstream: 'gh:o/up',
      commit: 'c'.repeat(40),
      digest: `sha256:${'d'.repeat(64)}`,
      dependencies: ['b'],
      requested: ['b@^1'],
      direct: false,
      executable: ['z.sh', 'a.sh'],
      github: { repo: 'o/r', ref: 'main', path: 'skills/full', treeSha: 't'.repeat(40), pinned: 'v1' },
      plugin: { name: 'tools', version: '2.0.0', marketplace: 'team', marketplaceSource: 'gh:o/market' },
      signedBy: 'key team.pub',
      signature: `sha256:${'e'.repeat(64)}`,
    };
    const parsedFull = parseLock(serializeLock([full]));
    expect(parsedFormOf([full])).toStrictEqual(parsedFull.ok && parsedFull.value);
    expect(parsedFormOf([{ name: 'a', version: '\ud800', source: '', integrity: '' }])).toBeUndefined();
    const twice = { name: 'a', version: '1', source: '', integrity: '' };
    expect(parsedFormOf([twice, twice])).toBeUndefined();
  });
});

/** A plan with its merged files' lazy contents read, for comparing two plans. */
const materialised = (p: CompilePlan) => ({
  ...p,
  write: p.write.map((f) => ({ ...f, content: f.content })),
  merge: p.merge.map((f) => ({ ...f, content: f.content })),
});

/** Every target's marker, the compile fixtures' skills, compiled once, then left out of step in several ways. */
function richProject(): string {
  const p = temp('skillsmith-rich-');
  write(p, { ...SKILLS, ...USER_FILES, '.aider.conf.yml': 'read: CONVENTIONS.md\n' });
  for (const m of Object.values(MARKERS)) write(p, m);
  return p;
}

describe('the compile plan from the async disk view', () => {
  it('is the compile service plan, field for field, on a project every target reads from', async () => {
    const p = richProject();
    expect((await cli(p, 'compile')).code).toBe(0);
    // Without the record of what compile wrote, the change's plan reads every output, as compile does (SPEC D274).
    dropWritten(p);
    // Out of step: a hand-written file where compile writes, a stale skill's outputs, a symlinked output folder.
    rmSync(join(p, '.kitbash/skills/beta'), { recursive: true });
    write(p, {
      '.cursor/rules/alpha.mdc': 'hand-written rule\n',
      'AGENTS.md': `${readFileSync(join(p, 'AGENTS.md'), 'utf8')}\nMore user text.\n`,
    });
    mkdirSync(join(p, 'elsewhere'));
    symlinkSync(join(p, 'elsewhere'), join(p, '.claude', 'skills', 'linked'));
    const planned = await planChange(p);
    expect(materialised(planned.plan)).toStrictEqual(materialised(planProject(p)));
  });

  it('and for a change: the plan of the project as it will be after the commit', async () => {
    const p = richProject();
    expect((await cli(p, 'compile')).code).toBe(0);
    const incoming = join(p, '.kitbash/skills/alpha');
    const { readSkillTree } = await import('../../main/services/skills/reader');
    const tree = readSkillTree(incoming, 'x');
    if (!tree.ok) throw new Error('fixture');
    const renamed = { ...tree.value, entries: tree.value.entries };
    const planned = await planChange(p, { put: [{ name: 'omega', tree: renamed }], remove: ['beta'] });
    // Now make it so on disk, as the commit does, and plan with the compile service.
    write(
      p,
      Object.fromEntries(
        Object.entries(SKILLS)
          .filter(([k]) => k.startsWith('.kitbash/skills/alpha/'))
          .map(([k, v]) => [k.replace('/alpha/', '/omega/'), v]),
      ),
    );
    rmSync(join(p, '.kitbash/skills/beta'), { recursive: true });
    expect(materialised(planned.plan)).toStrictEqual(materialised(planProject(p)));
  });

  it('still holds while nothing it read has moved, and not after an edit, a new file or a write within a tick of the read', async () => {
    const p = richProject();
    expect((await cli(p, 'compile')).code).toBe(0);
    // The full plan, which reads alpha's output folder: with the record (SPEC D274) it is left unread.
    dropWritten(p);
    await settle();
    const planned = await planChange(p);
    expect(await stillHolds(p, planned)).toBe(true);
    write(p, { '.claude/skills/alpha/notes.md': 'a user file in an output folder\n' });
    expect(await stillHolds(p, planned)).toBe(false);
    await settle();
    const again = await planChange(p);
    expect(await stillHolds(p, again)).toBe(true);
    writeFileSync(join(p, 'AGENTS.md'), readFileSync(join(p, 'AGENTS.md'), 'utf8').replace('User text', 'User txet'));
    expect(await stillHolds(p, again)).toBe(false);
    await settle();
    const third = await planChange(p);
    writeFileSync(join(p, '.kitbash/skills/gamma/SKILL.md'), '# Gamma\n\nRun scripts/check.sh and report!\n');
    expect(await stillHolds(p, third)).toBe(false);
    // A file whose timestamp is not yet in the past when it is read (written within the same tick, or a clock
    // ahead) is never trusted, even though nothing changes afterwards.
    await settle();
    const soon = new Date(Date.now() + 10_000);
    utimesSync(join(p, 'AGENTS.md'), soon, soon);
    const racy = await planChange(p);
    expect(await stillHolds(p, racy)).toBe(false);
  });
});

describe('installed skills read through the parse cache', () => {
  it('are exactly the skills loadInstalled reads — prototypes, frontmatter, raw TOML and all', async () => {
    const p = temp('skillsmith-parse-');
    write(p, SKILLS);
    const direct = loadInstalled(p);
    const first = await readInstalled(p);
    // Change a file the loader does not parse, so nothing comes from this process's memo: only the parse cache.
    for (const name of readdirSync(join(p, '.kitbash/skills')))
      write(p, { [`.kitbash/skills/${name}/notes.md`]: 'n\n' });
    const second = await readInstalled(p);
    const skillsOf = (fs: typeof first) => fs.flatMap((f) => ('skill' in f.outcome ? [f.outcome.skill] : []));
    const withoutNotes = (s: ReturnType<typeof skillsOf>[number]) => ({
      ...s,
      tree: { ...s.tree, entries: s.tree.entries.filter((e) => !e.path.endsWith('notes.md')) },
    });
    expect(skillsOf(first)).toStrictEqual(direct.skills);
    expect(skillsOf(second).map(withoutNotes)).toStrictEqual(direct.skills);
    expect(
      Object.keys(JSON.parse(readFileSync(indexFile(join(cacheDir(), 'skill-parse')), 'utf8')).skills).sort(),
    ).toEqual(direct.skills.map((s) => s.tree.root.split('/').pop()).sort());
  });
});

describe('install and the recompile', () => {
  it('an install into a settled project applies the plan its review made, and leaves the output as compile would', async () => {
    const p = richProject();
    expect((await cli(p, 'compile')).code).toBe(0);
    write(p, skillFiles('v/late', 'late'));
    await settle();
    process.env.SKILLSMITH_TIMINGS = '1';
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const r = await cli(p, 'install', 'file:./v/late', '--yes');
      expect(r.code).toBe(0);
      expect(said.mock.calls.map((c) => String(c[0])).join('')).toMatch(/recompile plan reused/);
    } finally {
      said.mockRestore();
      delete process.env.SKILLSMITH_TIMINGS;
    }
    const check = await cli(p, 'compile', '--dry-run', '--json');
    const plan = JSON.parse(check.stdout) as {
      write: { changed: boolean }[];
      merge: { changed: boolean }[];
      prune: unknown[];
    };
    expect([...plan.write, ...plan.merge].filter((f) => f.changed)).toEqual([]);
    expect(plan.prune).toEqual([]);
  });
});
