/**
 * Live previews are the compile engine's plan, not an imitation of it: main's plan of the
 * project with a skill's unsaved buffers laid over it must equal, byte for byte, what
 * `compile` plans once those buffers are saved to disk; and the page receives that
 * skill's part of it, bounded, through the contract.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompilePlan } from '../../shared/compile';
import { LivePreview as WirePreview } from '../../shared/ipc/channels/compile';
import { compileProject, loadInstalled, planProject } from '../../main/services/compile';
import { loadProject } from '../../main/services/dashboard/report';
import { editOf, livePreview, ownSection, previewOf, TEXT_BOUND } from '../../main/services/previews';
import { diffLines, diffStats } from '../../renderer/src/views/previews/diff';
import { scratch, until, type Scratch } from '../desktop/helpers';

const SK = '.kitbash/skills';

function savedFiles(root: string, dir: string, paths: readonly string[]): Map<string, string> {
  return new Map(paths.map((p) => [p, readFileSync(join(root, SK, dir, p), 'utf8')]));
}

/** Every planned file as path → text (bytes as a marker), and the prunes. */
function outputs(plan: CompilePlan): { files: Record<string, string>; prune: string[]; errors: readonly string[] } {
  const files: Record<string, string> = {};
  for (const f of [...plan.write, ...plan.merge])
    files[f.path] = typeof f.content === 'string' ? f.content : `<${f.content.length} bytes>`;
  return { files, prune: plan.prune.map((p) => `${p.action} ${p.path}`), errors: plan.errors };
}

/** The project as main loads it for one state of its files; `preview` plans one skill's buffers against it. */
function snapshot(root: string) {
  const project = loadProject(root);
  return {
    project,
    preview: (dir: string, files: ReadonlyMap<string, string>, options?: { inactive?: boolean }) =>
      livePreview(project, editOf(root, project, dir, files), options),
  };
}

function save(root: string, dir: string, files: ReadonlyMap<string, string>): void {
  for (const [p, t] of files) {
    mkdirSync(join(root, SK, dir, p, '..'), { recursive: true });
    writeFileSync(join(root, SK, dir, p), t);
  }
}

let ws: Scratch;
/** The example's kitbash.lock, for the tests that keep it. */
let pinned: Buffer;
beforeEach(() => {
  ws = scratch();
  // These tests edit and save the example's skills to hold previews against compile. Without the
  // lock every skill is the project's own, so an edit is not drift, which compile would not deliver
  // (that case has its own test below, with the lock).
  pinned = readFileSync(join(ws.project, 'kitbash.lock'));
  rmSync(join(ws.project, 'kitbash.lock'));
});
afterEach(() => ws.cleanup());

describe('live previews of unsaved buffers', () => {
  it('plan exactly what compile plans from disk, for the saved skill', () => {
    const snap = snapshot(ws.project);
    const live = snap.preview('prereview', savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']));
    expect(live.loadError).toBeUndefined();
    expect(outputs(live.plan)).toEqual(outputs(planProject(ws.project)));
    expect(live.targets.map((t) => t.target)).toEqual(['claude-code', 'cursor', 'agentsmd']);
    // Never compiled: every file is new.
    expect(live.targets.flatMap((t) => t.files).every((f) => f.disk === undefined && f.changed)).toBe(true);
  });

  it('with the lock: an edit to a pinned skill previews what it delivers, and that compile will not deliver it once saved', () => {
    writeFileSync(join(ws.project, 'kitbash.lock'), pinned);
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    expect(snap.preview('prereview', files).failure).toBeUndefined();
    const edited = new Map(files);
    edited.set('SKILL.md', `${files.get('SKILL.md')!.trimEnd()}\n\nAn edit after the review.\n`);
    const live = snap.preview('prereview', edited);
    expect(live.failure).toMatch(
      /^prereview: not delivered — its files differ from the integrity pinned in kitbash\.lock/,
    );
    expect(live.targets.every((t) => t.status === 'unsupported' && t.reasons[0]!.code === 'not-delivered')).toBe(true);
    // The author still sees what the edit delivers once it may be delivered (re-pinned).
    const claude = live.targets.find((t) => t.target === 'claude-code')!;
    expect(claude.files.find((f) => f.path === '.claude/skills/prereview/SKILL.md')!.content).toContain(
      'An edit after the review.',
    );
    save(ws.project, 'prereview', edited);
    const disk = planProject(ws.project);
    expect(disk.withheld.map((w) => `${w.name}:${w.reason}`)).toEqual(['dependency-audit:blocked', 'prereview:drift']);
    expect(disk.write.some((f) => f.skill === 'prereview')).toBe(false);
  });

  it('an unsaved body edit previews what compile writes once it is saved — every target, byte for byte', async () => {
    await compileProject(ws.project, { durable: false });
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const unchanged = snap.preview('prereview', files);
    expect(unchanged.targets.flatMap((t) => t.files).filter((f) => f.changed)).toEqual([]);

    const edited = new Map(files);
    edited.set('SKILL.md', `${files.get('SKILL.md')!.trimEnd()}\n\nAlways cite the line numbers you reviewed.\n`);
    const live = snap.preview('prereview', edited);
    const claude = live.targets.find((t) => t.target === 'claude-code')!;
    const md = claude.files.find((f) => f.path === '.claude/skills/prereview/SKILL.md')!;
    expect(md.changed).toBe(true);
    expect(md.content).toContain('Always cite the line numbers you reviewed.');
    const d = diffLines(md.disk!, md.content as string);
    expect(diffStats(d)).toEqual({ added: 2, removed: 0 });
    expect(d.filter((l) => l.kind === 'add').map((l) => l.text)).toContain(
      'Always cite the line numbers you reviewed.',
    );
    const agents = live.targets.find((t) => t.target === 'agentsmd')!;
    expect(agents.files[0]).toMatchObject({ path: 'AGENTS.md', merge: 'section', changed: true });
    // The merged file keeps every other skill's section.
    expect(agents.files[0]!.content).toContain('<!-- kitbash:begin api-style -->');
    // Eager AGENTS.md costs the whole text every session; lazy claude-code only the description.
    expect(agents.standingTokens).toBeGreaterThan(claude.standingTokens * 3);
    expect(agents.status).toBe('degraded');
    expect(agents.reasons.map((r) => r.code)).toContain('eager-only');

    save(ws.project, 'prereview', edited);
    expect(outputs(live.plan)).toEqual(outputs(planProject(ws.project)));
  });

  it('follows a rename, a new prompt file and a stale output exactly as compile does', async () => {
    await compileProject(ws.project, { durable: false });
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'tidy-commits', ['SKILL.md']);
    const edited = new Map(files);
    edited.set('SKILL.md', files.get('SKILL.md')!.replace(/^name:.*$/m, 'name: tidy-history'));
    const live = snap.preview('tidy-commits', edited);
    expect(live.name).toBe('tidy-history');
    expect(live.plan.prune.map((p) => p.path)).toContain('.claude/skills/tidy-commits/SKILL.md');
    save(ws.project, 'tidy-commits', edited);
    expect(outputs(live.plan)).toEqual(outputs(planProject(ws.project)));
  });

  it('a template that reads a new, unsaved prompt file', () => {
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'release-notes', ['SKILL.md', 'skill.toml']);
    const edited = new Map(files);
    edited.set('prompts/extra.md', 'Group the entries by breaking, feature, fix.\n');
    edited.set('SKILL.md', `${files.get('SKILL.md')!}\n{{prompt.extra}}\n`);
    const live = snap.preview('release-notes', edited);
    expect(live.prepareError).toBeUndefined();
    expect(live.targets[0]!.files[0]!.content).toContain('Group the entries by breaking, feature, fix.');
    save(ws.project, 'release-notes', edited);
    const disk = planProject(ws.project);
    expect(outputs(live.plan)).toEqual(outputs(disk));
  });

  it('a manifest that does not load: the same one-line error the compiler reports, and no previews', () => {
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const edited = new Map(files);
    edited.set('skill.toml', files.get('skill.toml')!.replace(/^version = .*$/m, 'version = "one"'));
    const live = snap.preview('prereview', edited);
    save(ws.project, 'prereview', edited);
    const failure = loadInstalled(ws.project).failures.find((f) => f.name === 'prereview')!;
    expect(live.loadError).toBe(failure.message);
    expect(live.targets).toEqual([]);
    expect(outputs(live.plan)).toEqual(outputs(planProject(ws.project)));
  });

  it('a body over its budget: that skill fails compile (D53), the previews still show each target', () => {
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'api-style', ['SKILL.md', 'skill.toml']);
    const edited = new Map(files);
    edited.set('SKILL.md', `${files.get('SKILL.md')!}\n${'Prefer plural nouns for collections. '.repeat(900)}\n`);
    const live = snap.preview('api-style', edited);
    expect(live.plan.failures.map((f) => f.message).join('\n')).toMatch(
      /api-style: compiled body is ~\d+ tokens, over its budget/,
    );
    expect(live.bodyTokens!).toBeGreaterThan(live.budget!);
    expect(live.targets.length).toBe(3);
  });

  it('other targets preview what compile writes once they are added to [project].targets', () => {
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const live = snap.preview('prereview', files, { inactive: true });
    expect(live.targets.map((t) => `${t.target}${t.inactive ? '*' : ''}`)).toEqual([
      'claude-code',
      'cursor',
      'agents*',
      'zed*',
      'copilot*',
      'cline*',
      'windsurf*',
      'gemini*',
      'aider*',
      'agentsmd',
      'agent-plugins*',
    ]);
    const copilot = live.targets.find((t) => t.target === 'copilot')!;
    const toml = join(ws.project, 'kitbash.toml');
    writeFileSync(
      toml,
      readFileSync(toml, 'utf8').replace(
        'targets = ["claude-code", "cursor", "agentsmd"]',
        'targets = ["claude-code", "cursor", "agentsmd", "copilot"]',
      ),
    );
    const disk = outputs(planProject(ws.project)).files;
    expect(copilot.files.length).toBeGreaterThan(0);
    for (const f of copilot.files)
      expect(typeof f.content === 'string' ? f.content : `<${f.content.length} bytes>`, f.path).toBe(disk[f.path]);
  });
});

describe('diffLines', () => {
  it('marks added, removed and kept lines with their numbers', () => {
    const d = diffLines('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    expect(d.map((l) => `${l.kind[0]}${l.oldNo ?? '-'}:${l.newNo ?? '-'} ${l.text}`)).toEqual([
      's1:1 a',
      'd2:- b',
      'a-:2 B',
      's3:3 c',
      's4:4 d',
      'a-:5 e',
    ]);
  });
  it('an absent file is all additions; identical texts have no changes', () => {
    expect(diffStats(diffLines('', 'x\ny\n'))).toEqual({ added: 2, removed: 0 });
    expect(diffStats(diffLines('same\n', 'same\n'))).toEqual({ added: 0, removed: 0 });
  });
  it('gives up past its edit bound with one replaced block (a wholly rewritten file stays fast)', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const t0 = performance.now();
    const d = diffLines(a, b, 500);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(diffStats(d)).toEqual({ added: 3000, removed: 3000 });
  });
});

describe('the compile channels through dispatch', () => {
  it('preview, plan and apply validate against the contract; apply refuses a stale plan and writes a current one', async () => {
    const { dispatch } = await import('../../main/ipc/dispatch');
    const { testPlatform, testSession } = await import('../desktop/helpers');
    const { session } = testSession(testPlatform(ws.dataDir));
    expect(await dispatch('compile.plan', {}, { session })).toMatchObject({ ok: false, error: { code: 'no-project' } });
    session.open(ws.project);
    try {
      const files = { 'SKILL.md': readFileSync(join(ws.project, SK, 'prereview', 'SKILL.md'), 'utf8') };
      const preview = await dispatch('compile.preview', { dir: 'prereview', files, inactive: false }, { session });
      if (!preview.ok) throw new Error(preview.error.message);
      expect(WirePreview.safeParse(preview.value).success).toBe(true);
      expect((preview.value as WirePreview).targets.map((t) => t.target)).toEqual([
        'claude-code',
        'cursor',
        'agentsmd',
      ]);
      // Buffers are skill-relative: a path that climbs out is refused before anything is read.
      for (const bad of ['../prereview/SKILL.md', '/etc/passwd', 'a//b.md', 'prompts/./x.md'])
        expect(
          await dispatch('compile.preview', { dir: 'prereview', files: { [bad]: 'x' }, inactive: false }, { session }),
          bad,
        ).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
      const plan = await dispatch('compile.plan', {}, { session });
      if (!plan.ok) throw new Error(plan.error.message);
      const p = plan.value as {
        digest: string;
        write: { path: string; created: boolean }[];
        merge: { path: string }[];
      };
      expect(p.write.find((f) => f.path === '.claude/skills/prereview/SKILL.md')).toMatchObject({ created: true });
      // prereview bundles a script: Claude Code's settings get the script guard (SPEC D200).
      expect(p.merge.map((f) => f.path)).toEqual(['AGENTS.md', '.claude/settings.json']);

      // The project changes after the plan was shown: nothing is written, the new plan comes back.
      writeFileSync(
        join(ws.project, SK, 'tidy-commits', 'SKILL.md'),
        `${readFileSync(join(ws.project, SK, 'tidy-commits', 'SKILL.md'), 'utf8')}\nOne more rule.\n`,
      );
      const stale = await dispatch('compile.apply', { digest: p.digest }, { session });
      expect(stale).toMatchObject({ ok: true, value: { status: 'stale' } });
      expect(() => readFileSync(join(ws.project, '.claude/skills/prereview/SKILL.md'))).toThrow();

      const fresh = (stale as { value: { plan: { digest: string } } }).value.plan.digest;
      const applied = await dispatch('compile.apply', { digest: fresh }, { session });
      expect(applied).toMatchObject({
        ok: true,
        value: {
          status: 'applied',
          summary: 'compiled 4 skills for 3 targets',
          // The example's dependency-audit pipes curl into sh: not delivered, and the answer says so.
          withheld: [expect.objectContaining({ name: 'dependency-audit', reason: 'blocked' })],
        },
      });
      expect(() => readFileSync(join(ws.project, '.claude/skills/dependency-audit/SKILL.md'))).toThrow();
      expect(readFileSync(join(ws.project, '.claude/skills/tidy-commits/SKILL.md'), 'utf8')).toContain(
        'One more rule.',
      );
      // Now in sync: the plan has nothing to change.
      const after = await dispatch('compile.plan', {}, { session });
      if (!after.ok) throw new Error(after.error.message);
      const a = after.value as { write: { changed: boolean }[]; merge: { changed: boolean }[]; prune: unknown[] };
      expect([...a.write, ...a.merge].filter((f) => f.changed)).toEqual([]);
      expect(a.prune).toEqual([]);
      expect(await dispatch('compile.apply', { digest: 'x'.repeat(200) }, { session })).toMatchObject({
        ok: false,
        error: { code: 'invalid-request' },
      });
    } finally {
      session.close();
    }
  });

  it('sends a merged file past its bound as sizes; house rules past the readers limit leave no room for the skill', async () => {
    // Hand-written house rules make AGENTS.md larger than the page is sent whole, and larger than
    // its readers read (spec D221): no skill's section is written after them.
    writeFileSync(join(ws.project, 'AGENTS.md'), `# House rules\n\n${'Be kind to the next reader. '.repeat(12_000)}\n`);
    await compileProject(ws.project, { durable: false });
    const disk = readFileSync(join(ws.project, 'AGENTS.md'), 'utf8');
    expect(disk.length).toBeGreaterThan(TEXT_BOUND);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const edited = new Map(files);
    edited.set('SKILL.md', `${files.get('SKILL.md')!.trimEnd()}\n\nName the file and line of each finding.\n`);
    const project = loadProject(ws.project);
    const wire = previewOf(ws.project, project, {
      dir: 'prereview',
      files: Object.fromEntries(edited),
      inactive: false,
    });
    expect(WirePreview.safeParse(wire).success).toBe(true);
    const full = livePreview(project, editOf(ws.project, project, 'prereview', edited));
    const planned = full.targets.find((t) => t.target === 'agentsmd')!.files[0]!;
    const agents = wire.targets.find((t) => t.target === 'agentsmd')!.files[0]!;
    expect(agents).toMatchObject({ path: 'AGENTS.md', merge: 'section', changed: false, onDisk: true, binary: false });
    expect([agents.text, agents.disk]).toEqual([null, null]);
    expect(agents.size).toBe(Buffer.byteLength(planned.content as string));
    expect(planned.content as string).not.toContain('kitbash:begin prereview');
    expect(agents.section).toBeNull();
    expect(agents.diskSection).toBeNull();
    expect(full.plan.warnings.find((w) => w.startsWith('AGENTS.md would be'))).toMatch(
      /over the 32768-byte limit .* — not written there: .*prereview/,
    );
    // A file within the bound is sent whole, with the disk's copy to diff against.
    const md = wire.targets.find((t) => t.target === 'claude-code')!.files[0]!;
    const mdPlanned = full.targets.find((t) => t.target === 'claude-code')!.files[0]!;
    expect(md).toMatchObject({ path: '.claude/skills/prereview/SKILL.md', changed: true, section: null });
    expect(md.text).toBe(mdPlanned.content);
    expect(md.disk).toBe(readFileSync(join(ws.project, '.claude/skills/prereview/SKILL.md'), 'utf8'));
    // And what compile writes once the buffers are saved is what was planned.
    save(ws.project, 'prereview', edited);
    expect(outputs(full.plan)).toEqual(outputs(planProject(ws.project)));
  });

  it('a folder that is not a skill folder previews as compile reads it: not at all, whatever the buffers say', () => {
    rmSync(join(ws.project, SK, 'tidy-commits'), { recursive: true });
    symlinkSync(join(ws.project, SK, 'prereview'), join(ws.project, SK, 'tidy-commits'));
    const files = savedFiles(ws.project, 'release-notes', ['SKILL.md']);
    const live = snapshot(ws.project).preview('tidy-commits', files);
    const failure = loadInstalled(ws.project).failures.find((f) => f.name === 'tidy-commits')!;
    expect(failure.message).toMatch(/symlink/);
    expect(live.loadError).toBe(failure.message);
    expect(live.targets).toEqual([]);
  });
});

describe('the hub answers a preview for the state of the files it has', () => {
  it("plans another skill's change on disk once it is seen, without being asked to forget", async () => {
    const { ProjectHub } = await import('../../main/services/dashboard/hub');
    const hub = new ProjectHub(undefined, 40);
    let changes = 0;
    const h = hub.acquire(ws.project, () => changes++);
    try {
      const files = Object.fromEntries(savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']));
      const agents = async () =>
        (await h.preview({ dir: 'prereview', files, inactive: false })).targets.find((t) => t.target === 'agentsmd')!
          .files[0]!.text!;
      expect(await agents()).not.toContain('Squash fixups before review.');
      const other = join(ws.project, SK, 'tidy-commits', 'SKILL.md');
      writeFileSync(other, `${readFileSync(other, 'utf8')}\nSquash fixups before review.\n`);
      await until(() => changes > 0);
      expect(await agents()).toContain('Squash fixups before review.');
    } finally {
      h.release();
      hub.closeAll();
    }
  });
});

describe("a skill's preview: its own problems, not the project's", () => {
  // A server the mcp check passes (tools listed): one it fails blocks the skill, and compile would not deliver it.
  const server = (name: string) =>
    `\n[mcp.servers.${name}]\ntransport = "stdio"\ncommand = "${name}-mcp"\ntools = ["query"]\n`;
  const addServer = (dir: string, name: string) => {
    const p = join(ws.project, SK, dir, 'skill.toml');
    writeFileSync(p, readFileSync(p, 'utf8') + server(name));
  };

  it("another skill's refusal is counted apart and never shown as this skill's; fixed, it is gone", () => {
    addServer('api-style', 'db');
    addServer('release-notes', 'db');
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const live = snap.preview('prereview', files);
    expect(live.plan.errors).toHaveLength(1);
    expect(live.plan.errors[0]).toMatch(/MCP server "db" is declared by both "api-style" and "release-notes"/);
    expect(live.refusals).toEqual([]);
    expect(live.projectRefusals).toEqual(live.plan.errors);
    expect(live.targets.length).toBeGreaterThan(0);

    // The other skill fixed on disk: a new snapshot, and nothing stays behind.
    const p = join(ws.project, SK, 'release-notes', 'skill.toml');
    writeFileSync(p, readFileSync(p, 'utf8').replace(server('db'), ''));
    const fixed = snapshot(ws.project).preview('prereview', files);
    expect([fixed.plan.errors, fixed.refusals, fixed.projectRefusals]).toEqual([[], [], []]);
  });

  it('a refusal this skill takes part in is its own', () => {
    addServer('api-style', 'db');
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const edited = new Map(files);
    edited.set('skill.toml', files.get('skill.toml')! + server('db'));
    const live = snap.preview('prereview', edited);
    expect(live.refusals).toHaveLength(1);
    expect(live.refusals[0]).toMatch(/declared by both "api-style" and "prereview"/);
    expect(live.projectRefusals).toEqual([]);
  });

  it("compile skipping this skill (over its budget) is this skill's, another skill's failure is not shown", () => {
    const p = join(ws.project, SK, 'api-style', 'SKILL.md');
    writeFileSync(p, `${readFileSync(p, 'utf8')}\n{{prompt.missing}}\n`);
    const snap = snapshot(ws.project);
    const files = savedFiles(ws.project, 'prereview', ['SKILL.md', 'skill.toml']);
    const clean = snap.preview('prereview', files);
    expect(clean.plan.failures.map((f) => f.name)).toEqual(['api-style']);
    expect(clean.failure).toBeUndefined();
    const edited = new Map(files);
    edited.set('skill.toml', files.get('skill.toml')!.replace(/budget = \d+/, 'budget = 50'));
    const over = snap.preview('prereview', edited);
    expect(over.failure).toMatch(/^prereview: compiled body is ~\d+ tokens, over its budget of 50/);
  });
});

describe('hunks', () => {
  it('keeps three lines of context around each change and folds the rest', async () => {
    const { hunks } = await import('../../renderer/src/views/previews/DiffView');
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n');
    const after = before.replace('l10', 'L10');
    const h = hunks(diffLines(before, after));
    expect(h.map((x) => (x.kind === 'fold' ? `…${x.count}` : `${x.kind[0]}${x.text}`))).toEqual([
      '…6',
      'sl7',
      'sl8',
      'sl9',
      'dl10',
      'aL10',
      'sl11',
      'sl12',
      'sl13',
      '…7',
    ]);
  });
});

describe('ownSection', () => {
  it("cuts one skill's marked section out of a merged file", () => {
    const doc =
      '<!-- kitbash:begin a -->\nA\n<!-- kitbash:end a -->\n\n<!-- kitbash:begin b -->\nB\n<!-- kitbash:end b -->\n';
    expect(ownSection(doc, 'b')).toBe('<!-- kitbash:begin b -->\nB\n<!-- kitbash:end b -->');
    expect(ownSection(doc, 'c')).toBeUndefined();
  });
});
