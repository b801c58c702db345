/**
 * Containment of the project's own folders (issue 15, item 6). The audit's proofs of
 * concept first: a symlinked `.kitbash/skills` made install write outside the project and
 * `remove` delete a folder that was never installed. Then the race: a child process swaps
 * a folder for a symlink leading outside, over and over, while the editor saves and the
 * compile writes — nothing may ever land outside.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPlan, planProject } from '../../main/services/compile';
import { saveEditable } from '../../main/services/editor/files';
import { appendFileInside, openProjectDir, replaceFileIn, writeFileInside } from '../../main/services/fs/inside';
import { cleanupTemps, cli, skillFiles, temp, write } from './helpers';

afterAll(cleanupTemps);

/** Every file under `dir`, '/'-separated, sorted. */
function filesUnder(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...filesUnder(dir, r));
    else out.push(r);
  }
  return out.sort();
}

function project(): string {
  const p = temp('skillsmith-contain-');
  write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code"]\n', ...skillFiles('v/tool', 'tool') });
  return p;
}

describe('a project whose own folders lead outside it', () => {
  it('install refuses a symlinked .kitbash/skills with one line, and writes nothing outside', async () => {
    const p = project();
    const outside = temp('skillsmith-outside-');
    mkdirSync(join(p, '.kitbash'));
    symlinkSync(outside, join(p, '.kitbash', 'skills'));
    const r = await cli(p, 'install', 'file:./v/tool', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^skillsmith install: \.kitbash[\\/]skills leads outside the project \(to .*\) — a symlinked folder; refusing to write or delete through it\n$/,
    );
    expect(filesUnder(outside)).toEqual([]);
    expect(existsSync(join(p, 'kitbash.lock'))).toBe(false);
  });

  it('install refuses a symlinked .kitbash, and writes nothing outside (not even the project lock)', async () => {
    const p = project();
    const outside = temp('skillsmith-outside-');
    symlinkSync(outside, join(p, '.kitbash'));
    const r = await cli(p, 'install', 'file:./v/tool', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.kitbash leads outside the project/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(filesUnder(outside)).toEqual([]);
  });

  it('remove refuses, and never deletes a folder that was never installed', async () => {
    const p = project();
    const outside = temp('skillsmith-outside-');
    write(outside, skillFiles('victim', 'victim'));
    write(outside, { 'victim/notes.txt': "the user's own files" });
    mkdirSync(join(p, '.kitbash'));
    symlinkSync(outside, join(p, '.kitbash', 'skills'));
    // A lock pinning the name, as a malicious repository would ship it.
    writeFileSync(
      join(p, 'kitbash.lock'),
      'version = 1\n\n[[skill]]\nname = "victim"\nversion = "1.0.0"\nsource = "file:./victim"\nintegrity = "sha256-0000000000000000000000000000000000000000000000000000000000000000"\n',
    );
    const r = await cli(p, 'remove', 'victim', '--yes');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.kitbash[\\/]skills leads outside the project/);
    expect(readFileSync(join(outside, 'victim', 'notes.txt'), 'utf8')).toBe("the user's own files");
    expect(filesUnder(outside)).toEqual(['victim/SKILL.md', 'victim/notes.txt', 'victim/skill.toml']);
  });

  it('a symlinked folder that stays inside the project is followed', async () => {
    const p = project();
    mkdirSync(join(p, 'store', 'skills'), { recursive: true });
    mkdirSync(join(p, '.kitbash'));
    symlinkSync(join('..', 'store', 'skills'), join(p, '.kitbash', 'skills'));
    const r = await cli(p, 'install', 'file:./v/tool', '--yes', '--no-compile');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(p, 'store', 'skills', 'tool', 'SKILL.md'))).toBe(true);
  });

  it('the write primitives refuse a path out of the project and a file that is a symlink', () => {
    const p = project();
    const outside = temp('skillsmith-outside-');
    symlinkSync(outside, join(p, 'out'));
    expect(() => writeFileInside(p, 'out/x.md', 'x')).toThrow(expect.objectContaining({ code: 'outside-project' }));
    expect(() => writeFileInside(p, '../x.md', 'x')).toThrow(expect.objectContaining({ code: 'outside-project' }));
    expect(() => appendFileInside(p, 'out/log', 'x')).toThrow(/out leads outside the project/);
    // An append never follows a symlink planted as the log file itself.
    mkdirSync(join(p, '.kitbash'));
    symlinkSync(join(outside, 'runs.jsonl'), join(p, '.kitbash', 'runs.jsonl'));
    expect(() => appendFileInside(p, '.kitbash/runs.jsonl', 'x\n')).toThrow(/ELOOP/);
    // A replace swaps the link itself for a file; what it pointed to is untouched.
    writeFileSync(join(outside, 'target'), 'keep');
    symlinkSync(join(outside, 'target'), join(p, 'kitbash.lock'));
    writeFileInside(p, 'kitbash.lock', 'version = 1\n');
    expect(readFileSync(join(outside, 'target'), 'utf8')).toBe('keep');
    expect(readFileSync(join(p, 'kitbash.lock'), 'utf8')).toBe('version = 1\n');
    expect(filesUnder(outside)).toEqual(['target']);
  });
});

describe('a folder swapped for a symlink between the check and the write', () => {
  it('a write through an opened folder lands in that folder, where a write by path would follow the symlink out', () => {
    const p = project();
    const outside = temp('skillsmith-outside-');
    mkdirSync(join(p, 'docs'));
    const dir = openProjectDir(p, 'docs');
    try {
      // The swap, exactly between the check (the open) and the write.
      renameSync(join(p, 'docs'), join(p, 'docs.real'));
      symlinkSync(outside, join(p, 'docs'));
      replaceFileIn(dir, 'a.md', 'inside\n');
      // The same write by path goes where the symlink leads: what the audit showed.
      writeFileSync(join(p, 'docs', 'by-path.md'), 'escaped\n');
    } finally {
      dir.close();
    }
    expect(readFileSync(join(p, 'docs.real', 'a.md'), 'utf8')).toBe('inside\n');
    expect(filesUnder(outside)).toEqual(['by-path.md']);
  });

  it('a folder moved out of the project after it was opened: the write is taken back and refused', () => {
    const p = project();
    const away = temp('skillsmith-outside-');
    mkdirSync(join(p, 'docs'));
    const dir = openProjectDir(p, 'docs');
    try {
      renameSync(join(p, 'docs'), join(away, 'docs'));
      expect(() => replaceFileIn(dir, 'a.md', 'x')).toThrow(/docs leads outside the project/);
    } finally {
      dir.close();
    }
    expect(filesUnder(away)).toEqual([]);
  });

  it('a folder made by the writer and swapped for a symlink before it is entered: refused', () => {
    const p = project();
    const outside = temp('skillsmith-outside-');
    const parent = openProjectDir(p, '');
    try {
      symlinkSync(outside, join(p, 'made'));
      // child(…, create) treats the name as its own new folder: a symlink there is never followed.
      expect(() => parent.child('made', true)).toThrow(
        /made is a symlink where Skillsmith made or expects its own folder/,
      );
    } finally {
      parent.close();
    }
  });
});

/**
 * A child process that swaps `dir` between the real folder and a symlink to `outside`
 * until `stop` exists. Our own code may recreate `dir` while it is away; the swapper then
 * moves that copy aside too, so the loop keeps going.
 */
function swapper(dir: string, outside: string, stop: string): { done: Promise<number> } {
  const script = `
    const fs = require('fs');
    const [dir, outside, stop] = process.argv.slice(1);
    let swaps = 0, n = 0;
    fs.writeFileSync(stop + '.ready', '');
    while (!fs.existsSync(stop)) {
      if (fs.existsSync(dir + '.real')) {
        // A folder our writer made while the real one was away: set it aside, put the real one back.
        try { fs.renameSync(dir, dir + '.made-' + n++); } catch {}
        try { fs.renameSync(dir + '.real', dir); } catch {}
        continue;
      }
      try { fs.renameSync(dir, dir + '.real'); } catch { continue; }
      try { fs.symlinkSync(outside, dir); } catch {}
      for (let i = 0; i < 1000; i++) {} // a moment in the swapped state
      try { if (fs.lstatSync(dir).isSymbolicLink()) fs.unlinkSync(dir); } catch {}
      try { fs.renameSync(dir + '.real', dir); swaps++; } catch {}
      for (let i = 0; i < 4000; i++) {} // and a moment in the real state
    }
    process.stdout.write(String(swaps));
  `;
  const child = spawn(process.execPath, ['-e', script, dir, outside, stop], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  return { done: new Promise((res) => child.on('exit', () => res(Number(out)))) };
}

/** Let the swapper start before the loop (it makes `<stop>.ready` first). */
async function waitFor(path: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 5));
}

describe('a folder swapped for a symlink while Skillsmith writes', () => {
  it("the editor's save never writes outside the project", async () => {
    const p = project();
    write(p, skillFiles('.kitbash/skills/tool', 'tool'));
    write(p, { '.kitbash/skills/tool/prompts/a.md': 'first\n' });
    const outside = temp('skillsmith-outside-');
    const stop = join(p, 'stop');
    const swap = swapper(join(p, '.kitbash', 'skills', 'tool', 'prompts'), outside, stop);
    await waitFor(`${stop}.ready`);
    let saved = 0;
    let refused = 0;
    for (let i = 0; i < 400; i++) {
      try {
        saveEditable(p, 'tool', 'prompts/a.md', `save ${i}\n`, null, true);
        saved++;
      } catch {
        refused++;
      }
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    writeFileSync(stop, '');
    const swaps = await swap.done;
    expect(filesUnder(outside)).toEqual([]);
    // The race really ran (how many saves won it varies from run to run), and with the
    // swapping stopped the same save lands.
    expect(swaps).toBeGreaterThan(0);
    expect(saved + refused).toBe(400);
    expect(saveEditable(p, 'tool', 'prompts/a.md', 'after\n', null, true).status).toBe('saved');
    expect(readFileSync(join(p, '.kitbash', 'skills', 'tool', 'prompts', 'a.md'), 'utf8')).toBe('after\n');
  });

  it('the compile writer never writes outside the project', async () => {
    const p = project();
    write(p, skillFiles('.kitbash/skills/tool', 'tool'));
    mkdirSync(join(p, '.claude', 'skills'), { recursive: true });
    const plan = planProject(p);
    expect(plan.write.filter((f) => f.changed).map((f) => f.path)).toContain('.claude/skills/tool/SKILL.md');
    const outside = temp('skillsmith-outside-');
    const stop = join(p, 'stop');
    const swap = swapper(join(p, '.claude', 'skills'), outside, stop);
    await waitFor(`${stop}.ready`);
    let applied = 0;
    let refused = 0;
    for (let i = 0; i < 150; i++) {
      try {
        await applyPlan(p, plan, { durable: false });
        applied++;
      } catch {
        refused++;
      }
    }
    writeFileSync(stop, '');
    const swaps = await swap.done;
    expect(filesUnder(outside)).toEqual([]);
    expect(swaps).toBeGreaterThan(0);
    expect(applied + refused).toBe(150);
    expect((await applyPlan(p, plan, { durable: false })).written).toContain('.claude/skills/tool/SKILL.md');
    expect(existsSync(join(p, '.claude', 'skills', 'tool', 'SKILL.md'))).toBe(true);
  });
});
