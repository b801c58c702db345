/** The dashboard's services: the scan, the debounced watcher, the hub and the recent list. */
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../shared/ipc/channels/project';
import { ProjectHub } from '../../main/services/dashboard/hub';
import { RecentProjects } from '../../main/services/dashboard/recent';
import { scanProject } from '../../main/services/dashboard/scan';
import { watchFailure, watchProject } from '../../main/services/dashboard/watch';
import type { WatchStatus } from '../../shared/ipc/channels/project';
import { defaultDataDir } from '../../main/services/dashboard/data-dir';
import { scratch, until, type Scratch } from './helpers';

let s: Scratch;
beforeEach(() => {
  s = scratch();
});
afterEach(() => s.cleanup());

describe('scanProject', () => {
  it('reports the example workspace as the contract shapes it', () => {
    const d = scanProject(s.project);
    expect(Dashboard.safeParse(d).success).toBe(true);
    expect(d.skills.map((r) => [r.dir, r.lint.status, r.lock])).toEqual([
      ['api-style', 'warn', 'locked'],
      ['dependency-audit', 'fail', 'locked'],
      ['prereview', 'pass', 'locked'],
      ['release-notes', 'pass', 'locked'],
      ['tidy-commits', 'warn', 'unlocked'],
    ]);
    expect(d.totals).toEqual({ skills: 5, failures: 1, warnings: 2 });
    expect(d.targets.filter((t) => t.active).map((t) => `${t.id}:${t.loading}`)).toEqual([
      'claude-code:lazy',
      'cursor:lazy',
      'agentsmd:eager',
    ]);
    const prereview = d.skills.find((r) => r.dir === 'prereview')!;
    expect(prereview).toMatchObject({
      version: '0.1.0',
      budget: 1500,
      bodyTokens: 284,
      mode: 'gate',
      source: 'gh:skillsmith/examples/prereview@v0.1.0',
    });
    // Lazy targets charge the description; eager AGENTS.md the whole emitted text.
    expect(prereview.standing['agentsmd']!).toBeGreaterThan(prereview.standing['claude-code']! * 5);
    const total = d.standingByTarget.find((t) => t.target === 'agentsmd')!.tokens!;
    expect(total).toBe(d.skills.reduce((n, r) => n + r.standing['agentsmd']!, 0));
    expect(d.lock).toMatchObject({ state: 'warn', detail: '4 pinned · 1 not pinned' });
    expect(d.policy).toMatchObject({ state: 'error' });
    // dependency-audit's curl | sh blocks: compile does not deliver it, and the card and its row say so.
    expect(d.compiled).toMatchObject({
      state: 'error',
      detail: expect.stringMatching(/^1 skill not delivered \(dependency-audit\)/),
    });
    expect(d.skills.find((r) => r.dir === 'dependency-audit')!.standing['agentsmd']).toBe(0);
    expect(d.problems).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        skill: 'dependency-audit',
        source: 'compile',
        message: expect.stringMatching(/^dependency-audit: not delivered — fails a blocking check: remote-exec/),
      }),
    );
    expect(d.problems[0]).toMatchObject({
      severity: 'error',
      skill: 'dependency-audit',
      source: 'remote-exec',
      file: '.kitbash/skills/dependency-audit/scripts/audit.sh',
      line: 5,
    });
    expect(
      d.problems
        .filter((p) => p.severity === 'error')
        .map((p) => p.source)
        .sort(),
    ).toEqual(['compile', 'policy', 'remote-exec']);
  });

  it('sees drift, a missing pin and a broken kitbash.toml', () => {
    appendFileSync(join(s.project, '.kitbash/skills/prereview/SKILL.md'), '\nOne more line.\n');
    rmSync(join(s.project, '.kitbash/skills/api-style'), { recursive: true });
    let d = scanProject(s.project);
    expect(d.skills.find((r) => r.dir === 'prereview')!.lock).toBe('drift');
    expect(d.lock.state).toBe('error');
    expect(d.problems.map((p) => p.message)).toContain('api-style: pinned in kitbash.lock but not installed');
    writeFileSync(join(s.project, 'kitbash.toml'), '[project\n');
    d = scanProject(s.project);
    expect(d.configError).toMatch(/^kitbash\.toml.*invalid TOML/);
    expect(d.problems[0]).toMatchObject({ severity: 'error', source: 'kitbash.toml' });
  });

  it('an empty folder is an empty project, not an error', () => {
    const empty = join(s.dir, 'empty');
    mkdirSync(empty);
    const d = scanProject(empty);
    expect(d.skills).toEqual([]);
    expect(d.configError).toBeNull();
    expect(d.lock.state).toBe('none');
  });
});

describe('watchProject', () => {
  it('reports a burst of changes once, debounced, with project-relative paths', async () => {
    const bursts: string[][] = [];
    const w = watchProject(s.project, (p) => bursts.push(p), 80);
    try {
      await w.ready;
      for (let i = 0; i < 5; i++) appendFileSync(join(s.project, '.kitbash/skills/prereview/SKILL.md'), `line ${i}\n`);
      writeFileSync(join(s.project, 'kitbash.lock'), readFileSync(join(s.project, 'kitbash.lock')));
      await until(() => bursts.length > 0);
      await new Promise((r) => setTimeout(r, 200));
      expect(bursts).toHaveLength(1);
      expect(bursts[0]).toEqual(expect.arrayContaining(['.kitbash/skills/prereview/SKILL.md', 'kitbash.lock']));
    } finally {
      w.close();
    }
  });

  it('picks up .kitbash/ created after the watch began, and ignores .git', async () => {
    const fresh = join(s.dir, 'fresh');
    mkdirSync(fresh);
    const bursts: string[][] = [];
    const w = watchProject(fresh, (p) => bursts.push(p), 40);
    try {
      mkdirSync(join(fresh, '.kitbash', 'skills', 'a'), { recursive: true });
      await until(() => bursts.length > 0);
      const n = bursts.length;
      await new Promise((r) => setTimeout(r, 100));
      writeFileSync(join(fresh, '.kitbash', 'skills', 'a', 'SKILL.md'), 'x');
      await until(() => bursts.length > n && bursts.flat().includes('.kitbash/skills/a/SKILL.md'));
      const m = bursts.length;
      mkdirSync(join(fresh, '.git'));
      writeFileSync(join(fresh, '.git', 'HEAD'), 'ref');
      await new Promise((r) => setTimeout(r, 150));
      expect(
        bursts
          .slice(m)
          .flat()
          .filter((p) => p.startsWith('.git')),
      ).toEqual([]);
    } finally {
      w.close();
    }
  });
  it('watches a folder tree moved in, and a folder replaced under the same name', async () => {
    const skills = join(s.project, '.kitbash', 'skills');
    const bursts: string[][] = [];
    const w = watchProject(s.project, (p) => bursts.push(p), 40);
    const seen = (path: string) => until(() => bursts.flat().includes(path));
    try {
      await w.ready;
      // Staged outside the watched folders, then moved in whole, as an install commits.
      const staged = join(s.dir, 'staged');
      mkdirSync(join(staged, 'scripts', 'deep'), { recursive: true });
      renameSync(staged, join(skills, 'moved'));
      await seen('.kitbash/skills/moved');
      writeFileSync(join(skills, 'moved', 'scripts', 'deep', 'run.sh'), 'echo\n');
      await seen('.kitbash/skills/moved/scripts/deep/run.sh');

      // The same path, another folder: the old watch saw nothing of the new one.
      renameSync(join(skills, 'moved'), join(s.dir, 'old'));
      mkdirSync(join(s.dir, 'new', 'scripts'), { recursive: true });
      renameSync(join(s.dir, 'new'), join(skills, 'moved'));
      const n = bursts.length;
      await until(() => bursts.length > n);
      writeFileSync(join(skills, 'moved', 'scripts', 'x.sh'), 'echo\n');
      await seen('.kitbash/skills/moved/scripts/x.sh');
      // The folder moved away is no longer reported as the project's.
      const m = bursts.length;
      writeFileSync(join(s.dir, 'old', 'scripts', 'deep', 'late.sh'), 'echo\n');
      await new Promise((r) => setTimeout(r, 150));
      expect(bursts.slice(m).flat()).toEqual([]);
    } finally {
      w.close();
    }
  });

  it('reports nothing from a node_modules folder inside a watched folder', async () => {
    const dep = join(s.project, '.kitbash', 'skills', 'prereview', 'node_modules', 'dep');
    mkdirSync(dep, { recursive: true });
    const bursts: string[][] = [];
    const w = watchProject(s.project, (p) => bursts.push(p), 40);
    try {
      await w.ready;
      writeFileSync(join(dep, 'index.js'), 'x');
      appendFileSync(join(s.project, '.kitbash/skills/prereview/SKILL.md'), 'x\n');
      await until(() => bursts.length > 0);
      await new Promise((r) => setTimeout(r, 100));
      expect(bursts.flat()).toEqual(['.kitbash/skills/prereview/SKILL.md']);
    } finally {
      w.close();
    }
  });
});

describe('the watch status', () => {
  const err = (code: string, message = `${code}: boom`) => Object.assign(new Error(message), { code });

  it('names the folder and the limit to raise; a folder that is gone is no failure', () => {
    expect(watchFailure('.kitbash/skills/a', err('ENOSPC'))).toBe(
      ".kitbash/skills/a: not watched — the system's limit on file watches is reached (raise fs.inotify.max_user_watches)",
    );
    expect(watchFailure('.claude', err('EMFILE'))).toMatch(/^\.claude: not watched — too many watchers or open files/);
    expect(watchFailure('x', err('EACCES'))).toBe('x: not watched — permission denied');
    expect(watchFailure('x', err('EIO', 'EIO: i/o error\nsecond line'))).toBe('x: not watched — EIO: i/o error');
    expect(watchFailure('x', err('ENOENT'))).toBeNull();
    expect(watchFailure('x', err('ENOTDIR'))).toBeNull();
  });

  it('is live with every folder counted once ready, and tells of each change in the count', async () => {
    const seen: WatchStatus[] = [];
    const w = watchProject(
      s.project,
      () => undefined,
      40,
      (st) => seen.push(st),
    );
    try {
      await w.ready;
      const first = w.status();
      expect(first).toMatchObject({ state: 'live', unwatched: 0, reason: null });
      expect(seen).toEqual([first]);
      mkdirSync(join(s.project, '.kitbash', 'skills', 'prereview', 'new-folder'));
      await until(() => seen.length === 2);
      expect(seen[1]).toEqual({ ...first, watched: first.watched + 1 });
    } finally {
      w.close();
    }
  });
});

describe('the watch of one folder', () => {
  it('has no gap where every folder at or under it is watched, and names a folder outside the watch', async () => {
    const w = watchProject(s.project, () => undefined, 40);
    try {
      await w.ready;
      expect(w.gapUnder('.kitbash')).toBeNull();
      expect(w.gapUnder('.kitbash/skills/prereview')).toBeNull();
      expect(w.gapUnder('notes')).toBe('notes: not among the folders Skillsmith watches');
      mkdirSync(join(s.project, 'notes'));
      await new Promise((r) => setTimeout(r, 200));
      // Not a folder the dashboard reads: still not watched, and still said.
      expect(w.gapUnder('notes')).toBe('notes: not among the folders Skillsmith watches');
    } finally {
      w.close();
    }
  });
});

describe('ProjectHub', () => {
  it('shares one watcher and cached scan per folder and drops it with the last viewer', async () => {
    const hub = new ProjectHub(undefined, 40);
    const seen: string[] = [];
    const a = hub.acquire(s.project, () => seen.push('a'));
    const b = hub.acquire(s.project, () => seen.push('b'));
    expect(hub.size).toBe(1);
    const first = await a.dashboard();
    expect(await b.dashboard()).toBe(first);
    appendFileSync(join(s.project, '.kitbash/skills/prereview/SKILL.md'), 'x\n');
    await until(() => seen.length === 2);
    expect(seen.sort()).toEqual(['a', 'b']);
    expect(await a.dashboard()).not.toBe(first);
    a.release();
    a.release();
    expect(hub.size).toBe(1);
    b.release();
    expect(hub.size).toBe(0);
  });
});

describe('RecentProjects', () => {
  it('keeps newest first, de-duplicated, capped, in one JSON file written atomically', () => {
    const r = new RecentProjects(s.dataDir);
    expect(r.list()).toEqual([]);
    r.add(s.project, new Date('2026-01-01T00:00:00Z'));
    r.add('/gone/away', new Date('2026-01-02T00:00:00Z'));
    r.add(s.project, new Date('2026-01-03T00:00:00Z'));
    expect(r.list().map((p) => [p.path, p.exists, p.openedAt])).toEqual([
      [s.project, true, '2026-01-03T00:00:00.000Z'],
      ['/gone/away', false, '2026-01-02T00:00:00.000Z'],
    ]);
    expect(r.last()).toBe(s.project);
    for (let i = 0; i < 20; i++) r.add(`/p/${i}`);
    expect(r.list()).toHaveLength(12);
    expect(JSON.parse(readFileSync(r.file, 'utf8')).version).toBe(1);
  });

  it('reads a corrupt or foreign file as empty and recovers on the next write', () => {
    const r = new RecentProjects(s.dataDir);
    mkdirSync(s.dataDir, { recursive: true });
    writeFileSync(r.file, '{not json');
    expect(r.list()).toEqual([]);
    writeFileSync(r.file, JSON.stringify({ version: 9, projects: 'x' }));
    expect(r.list()).toEqual([]);
    r.add(s.project);
    expect(r.list().map((p) => p.path)).toEqual([s.project]);
  });

  it('lives in SKILLSMITH_DATA_DIR or the per-user config folder', () => {
    expect(defaultDataDir({ SKILLSMITH_DATA_DIR: '/d' }, 'linux')).toBe('/d');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Skillsmith');
    expect(defaultDataDir({ APPDATA: 'C:\\U\\AppData' }, 'win32')).toMatch(/Skillsmith$/);
  });
});
