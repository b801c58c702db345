import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLock, skillIntegrity } from '../../main/services/lock';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

const hasGit = requireOrSkip('git', gitAvailable());

function project(): string {
  const p = temp();
  write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n' });
  return p;
}
const lockOf = (p: string, name: string) => {
  const l = readLock(p);
  if (!l.ok) throw new Error(l.error.message);
  return l.value.entries.find((e) => e.name === name)!;
};
const skill = (p: string, name: string, file: string) => join(p, '.kitbash', 'skills', name, file);
const read = (p: string, name: string, file: string) => readFileSync(skill(p, name, file), 'utf8');

const BODY = ['# tool', '', 'Step one: read the brief.', '', 'Step two: plan.', '', 'Step three: write it down.', ''];
const body = (edit: (lines: string[]) => void = () => {}) => {
  const l = [...BODY];
  edit(l);
  return l.join('\n');
};

/** A repository with `tool` at v1; `v2` commits upstream's edit of the body (and a new file). */
function upstream(v2Body = body((l) => (l[6] = 'Step three: write it down, then check it.'))) {
  const repo = gitRepo(skillFiles('', 'tool', { body: body() }));
  return {
    repo,
    v2: () => repo.commit({ ...skillFiles('', 'tool', { version: '1.1.0', body: v2Body }), 'extra.md': 'New.\n' }),
  };
}

/** Every file of the project (paths and bytes), as one hash. */
function treeHash(root: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const abs = join(d, n);
      const st = statSync(abs);
      h.update(`${relative(root, abs)}\0${st.mode}\0`);
      if (st.isDirectory()) walk(abs);
      else h.update(readFileSync(abs));
    }
  };
  walk(root);
  return h.digest('hex');
}

const backups = (p: string, name: string) => {
  const dir = join(p, '.kitbash', 'backups', name);
  return existsSync(dir) ? readdirSync(dir).map((d) => join(dir, d)) : [];
};

describe.skipIf(!hasGit)('update keeps local edits (three-way merge)', () => {
  it('merges edits to other lines, keeps local-only files, backs up, and pins the merged bytes', async () => {
    const { repo, v2 } = upstream();
    const p = project();
    expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
    const v1 = lockOf(p, 'tool');
    const local = body((l) => (l[2] = 'Step one: read the brief twice.'));
    writeFileSync(skill(p, 'tool', 'SKILL.md'), local);
    writeFileSync(skill(p, 'tool', 'mine.md'), 'Only mine.\n');
    const commit = v2();

    const r = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tool: local edits kept — merged with upstream over the installed version');
    expect(r.stdout).toContain('tool: merged cleanly: SKILL.md');
    expect(r.stdout).toContain('tool: kept as you edited them: mine.md');
    expect(r.stdout).toContain('tool: taken from upstream: extra.md, skill.toml');
    expect(read(p, 'tool', 'SKILL.md')).toBe(
      body((l) => {
        l[2] = 'Step one: read the brief twice.';
        l[6] = 'Step three: write it down, then check it.';
      }),
    );
    expect(read(p, 'tool', 'mine.md')).toBe('Only mine.\n');
    expect(read(p, 'tool', 'extra.md')).toBe('New.\n');

    const [backup, ...more] = backups(p, 'tool');
    expect(more).toEqual([]);
    expect(r.stdout).toContain(`backed up to ${relative(p, backup!)}/`);
    expect(readFileSync(join(backup!, 'SKILL.md'), 'utf8')).toBe(local);
    expect(readFileSync(join(backup!, 'mine.md'), 'utf8')).toBe('Only mine.\n');
    // The backup is no skill: nothing lists it, the lock does not pin it.
    expect((await cli(p, 'list')).stdout).not.toMatch(/backups/);

    // The pin is of what was reviewed and written; `upstream` is the source's folder at the commit.
    const pin = lockOf(p, 'tool');
    expect(pin).toMatchObject({ version: '1.1.0', commit });
    expect(skillIntegrity(join(p, '.kitbash', 'skills', 'tool'))).toEqual({ ok: true, value: pin.integrity });
    expect(pin.upstream).toMatch(/^sha256-/);
    expect(pin.upstream).not.toBe(pin.integrity);
    expect(pin.upstream).not.toBe(v1.integrity);
    expect((await cli(p, 'update', 'tool')).stdout).toContain('tool@1.1.0 is up to date');
  });

  it('leaves conflicts with markers, pins nothing local until they are resolved, then pins the resolution', async () => {
    const { repo, v2 } = upstream();
    const p = project();
    expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
    writeFileSync(
      skill(p, 'tool', 'SKILL.md'),
      body((l) => (l[6] = 'Step three: say it out loud.')),
    );
    const commit = v2();

    const r = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('tool: left with conflict markers to resolve: SKILL.md');
    expect(r.stdout).toContain('updated tool@1.1.0 with conflicts left in SKILL.md');
    expect(read(p, 'tool', 'SKILL.md')).toBe(
      [
        ...BODY.slice(0, 6),
        '<<<<<<< local',
        'Step three: say it out loud.',
        '=======',
        'Step three: write it down, then check it.',
        '>>>>>>> upstream',
        '',
      ].join('\n'),
    );
    expect(backups(p, 'tool')).toHaveLength(1);
    // The lock names the new upstream, but its integrity is upstream's: the half-merged copy drifts.
    const pin = lockOf(p, 'tool');
    expect(pin).toMatchObject({ version: '1.1.0', commit });
    expect(pin.upstream).toBeUndefined();
    expect(skillIntegrity(join(p, '.kitbash', 'skills', 'tool'))).not.toEqual({ ok: true, value: pin.integrity });
    const verify = await cli(p, 'verify', '--json');
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('skill-drift');

    // Unresolved markers are never pinned.
    const again = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('tool: unresolved merge-conflict marker at SKILL.md:7 — resolve it first');

    const resolved = body((l) => (l[6] = 'Step three: say it out loud, then check it.'));
    writeFileSync(skill(p, 'tool', 'SKILL.md'), resolved);
    const pinIt = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(pinIt.stderr).toBe('');
    expect(pinIt.code).toBe(0);
    expect(pinIt.stdout).toContain('tool: kept as you edited them: SKILL.md');
    expect(read(p, 'tool', 'SKILL.md')).toBe(resolved);
    const after = lockOf(p, 'tool');
    expect(skillIntegrity(join(p, '.kitbash', 'skills', 'tool'))).toEqual({ ok: true, value: after.integrity });
    expect(after.upstream).toBe(pin.integrity);
  });

  it('an edit that asks for more is an escalation of the review: --yes does not pin it', async () => {
    const { repo } = upstream();
    const p = project();
    expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
    const toml = skill(p, 'tool', 'skill.toml');
    writeFileSync(toml, readFileSync(toml, 'utf8').replace('network = false', 'network = true'));
    const pinned = lockOf(p, 'tool').integrity;
    const r = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tool: not applied — the update escalates (permissions.network)');
    expect(lockOf(p, 'tool').integrity).toBe(pinned);
    const review = JSON.parse((await cli(p, 'update', 'tool', '--json', '--dry-run')).stdout) as {
      integrity: string;
    }[];
    const approved = await cli(p, 'update', 'tool', '--approve', review[0]!.integrity, '--no-compile');
    expect(approved.code).toBe(0);
    expect(skillIntegrity(join(p, '.kitbash', 'skills', 'tool'))).toEqual({
      ok: true,
      value: lockOf(p, 'tool').integrity,
    });
    expect(lockOf(p, 'tool').upstream).toBe(pinned);
  });

  it('--theirs takes upstream for a conflicting file, --ours keeps the local one; local-only files stay', async () => {
    for (const side of ['theirs', 'ours'] as const) {
      const { repo, v2 } = upstream();
      const p = project();
      expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
      const local = body((l) => (l[6] = 'Step three: say it out loud.'));
      writeFileSync(skill(p, 'tool', 'SKILL.md'), local);
      writeFileSync(skill(p, 'tool', 'mine.md'), 'Only mine.\n');
      v2();
      const r = await cli(p, 'update', 'tool', '--yes', '--no-compile', `--${side}`);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(read(p, 'tool', 'SKILL.md')).toBe(
        side === 'ours' ? local : body((l) => (l[6] = 'Step three: write it down, then check it.')),
      );
      expect(read(p, 'tool', 'mine.md')).toBe('Only mine.\n');
      expect(read(p, 'tool', 'extra.md')).toBe('New.\n');
      expect(readFileSync(join(backups(p, 'tool')[0]!, 'SKILL.md'), 'utf8')).toBe(local);
      expect(skillIntegrity(join(p, '.kitbash', 'skills', 'tool'))).toEqual({
        ok: true,
        value: lockOf(p, 'tool').integrity,
      });
    }
  });

  it('--dry-run shows the review and merge and writes nothing', async () => {
    const { repo, v2 } = upstream();
    const p = project();
    expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
    writeFileSync(
      skill(p, 'tool', 'SKILL.md'),
      body((l) => (l[2] = 'Step one: read the brief twice.')),
    );
    v2();
    const before = treeHash(p);
    const r = await cli(p, 'update', '--dry-run', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('review: tool@1.1.0');
    expect(r.stdout).toContain('tool: merged cleanly: SKILL.md');
    expect(r.stdout).toContain('dry run: tool not updated — nothing written');
    expect(treeHash(p)).toBe(before);
  });

  it('refuses to merge when the base cannot be recovered, and --theirs then keeps local-only files', async () => {
    const p = project();
    write(p, skillFiles('src/tool', 'tool', { body: body() }));
    expect((await cli(p, 'install', 'file:./src/tool', '--yes', '--no-compile')).code).toBe(0);
    writeFileSync(
      skill(p, 'tool', 'SKILL.md'),
      body((l) => (l[2] = 'Local.')),
    );
    writeFileSync(skill(p, 'tool', 'mine.md'), 'Only mine.\n');
    write(p, skillFiles('src/tool', 'tool', { version: '1.1.0', body: body((l) => (l[6] = 'Upstream.')) }));
    const before = treeHash(p);

    const r = await cli(p, 'update', 'tool', '--yes', '--no-compile');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'tool has local edits, and the version they were made on cannot be recovered: kitbash.lock records no commit for it — nothing changed; rerun with --theirs',
    );
    expect(treeHash(p)).toBe(before);

    const theirs = await cli(p, 'update', 'tool', '--yes', '--no-compile', '--theirs');
    expect(theirs.code).toBe(0);
    expect(theirs.stdout).toContain('without a base');
    expect(read(p, 'tool', 'SKILL.md')).toBe(body((l) => (l[6] = 'Upstream.')));
    expect(read(p, 'tool', 'mine.md')).toBe('Only mine.\n');
    expect(backups(p, 'tool')).toHaveLength(1);
  });

  it('outdated lists moved sources with files and escalations, writes nothing, and exits 1', async () => {
    const repo = gitRepo(skillFiles('', 'tool', { body: body() }));
    const p = project();
    expect((await cli(p, 'install', repo.url, '--yes', '--no-compile')).code).toBe(0);
    const none = await cli(p, 'outdated');
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('0 skills outdated · 1 up to date\n');
    const from = lockOf(p, 'tool').commit!;
    const to = repo.commit({
      ...skillFiles('', 'tool', { version: '2.0.0', network: true, body: body() }),
      'scripts/go.sh': '#!/bin/sh\necho go\n',
    });
    const before = treeHash(p);
    const r = await cli(p, 'outdated');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`tool: 1.0.0 (${from.slice(0, 12)}) → 2.0.0 (${to.slice(0, 12)})`);
    expect(r.stdout).toContain('  files: 1 added, 1 changed, 0 removed\n    ~ skill.toml\n    + scripts/go.sh\n');
    expect(r.stdout).toContain('permissions.network: no → YES  ⚠ escalation');
    expect(r.stdout).toContain('1 skill outdated · 0 up to date');
    const j = await cli(p, 'outdated', '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toEqual([
      {
        name: 'tool',
        from: { version: '1.0.0', commit: from },
        to: { version: '2.0.0', commit: to },
        files: [
          { path: 'skill.toml', change: '~' },
          { path: 'scripts/go.sh', change: '+' },
        ],
        escalations: expect.arrayContaining([expect.objectContaining({ field: 'permissions.network' })]),
        localEdits: false,
      },
    ]);
    expect(treeHash(p)).toBe(before);
  });
});
