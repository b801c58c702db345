/**
 * `skillsmith spec ...` driven in-process through the CLI's main() (the same dispatch the
 * binary uses), on specs written to temporary folders.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../main/cli/main';
import { requireBuiltCli } from '../cli/helpers';
import { corpusDir, requireOrSkip, runCli } from '../support/paths';
import { doc } from './helpers';

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillspec-cli-'));
  temps.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

async function run(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { cwd, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const SPEC = doc(`routes:
  - {id: local, label: Local, rank: 1}
  - {id: remote, label: Remote}
rules:
  - {id: use_remote, when: {user_says_any: [remote]}, prefer: remote, forbid: [guess], reason: Remote work.}
tests:
  - {name: remote goes remote, input: do it remote, expect: {route: remote, matched_rules_exact: [use_remote]}}
  - {name: default is local, input: anything, expect: {route: local}}
`);

describe('spec validate', () => {
  it('prints ok with the path as given, the id and the schema', async () => {
    const dir = project({ 'skill.spec.yml': SPEC });
    expect(await run(dir, 'spec', 'validate', 'skill.spec.yml')).toEqual({
      code: 0,
      out: 'ok: skill.spec.yml is t.spec (skillspec/v0)\n',
      err: '',
    });
  });

  it('prints error: <message> and exits 1 on an invalid spec', async () => {
    const dir = project({ 'bad.yml': doc('rules:\n  - {id: r, prefer: nowhere}\n') });
    expect(await run(dir, 'spec', 'validate', 'bad.yml')).toEqual({
      code: 1,
      out: '',
      err: 'error: unknown reference "nowhere" in rules.prefer\n',
    });
  });

  it('names a missing file the way the reference does', async () => {
    const dir = project({});
    const r = await run(dir, 'spec', 'validate', 'nope.yml');
    expect(r.code).toBe(1);
    expect(r.err).toBe('error: failed to read nope.yml: No such file or directory (os error 2)\n');
  });

  it('refuses a file that is not UTF-8', async () => {
    const dir = project({});
    writeFileSync(join(dir, 's.yml'), Buffer.from([0x69, 0x64, 0x3a, 0x20, 0xff, 0x0a]));
    expect((await run(dir, 'spec', 'validate', 's.yml')).err).toBe(
      'error: skill spec s.yml is not valid UTF-8: invalid utf-8 sequence from index 4\n',
    );
  });

  it('refuses a 10 MB file before reading it', async () => {
    const dir = project({});
    writeFileSync(join(dir, 'big.yml'), Buffer.alloc(10 * 1024 * 1024, 0x61));
    const t0 = performance.now();
    const r = await run(dir, 'spec', 'validate', 'big.yml');
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r).toEqual({
      code: 1,
      out: '',
      err: 'error: skill spec big.yml is 10485760 bytes; a skill spec may be at most 4 MiB\n',
    });
  });

  it('reports with --json too', async () => {
    const dir = project({ 'skill.spec.yml': SPEC });
    expect(JSON.parse((await run(dir, 'spec', 'validate', 'skill.spec.yml', '--json')).out)).toEqual({
      ok: true,
      path: 'skill.spec.yml',
      id: 't.spec',
      schema: 'skillspec/v0',
    });
  });
});

describe('spec test', () => {
  it('prints P/T passed and exits 0 when all pass', async () => {
    const dir = project({ 'skill.spec.yml': SPEC });
    expect(await run(dir, 'spec', 'test', 'skill.spec.yml')).toEqual({
      code: 0,
      out: 'skillspec test: 2/2 passed\n',
      err: '',
    });
  });

  it('prints a FAIL block and exits 1 on a failure', async () => {
    const dir = project({ 'skill.spec.yml': SPEC.replace('expect: {route: local}', 'expect: {route: remote}') });
    const r = await run(dir, 'spec', 'test', 'skill.spec.yml');
    expect(r.code).toBe(1);
    expect(r.out).toBe('skillspec test: 1/2 passed\nFAIL default is local\n  - expected route remote, got local\n');
  });
});

describe('spec decide and explain', () => {
  it('prints the decision as pretty JSON', async () => {
    const dir = project({ 'skill.spec.yml': SPEC });
    const r = await run(dir, 'spec', 'decide', 'skill.spec.yml', '--input', 'go remote', '--json');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.out) as Record<string, unknown>;
    expect(d['route']).toBe('remote');
    expect(d['route_selection']).toEqual({
      route: 'remote',
      basis: 'rule_prefer',
      rule_id: 'use_remote',
      reason: 'Remote work.',
    });
    expect(d['forbid']).toEqual(['guess']);
    expect(r.out).toBe(`${JSON.stringify(d, null, 2)}\n`);
  });

  it('explains a decision as text', async () => {
    const dir = project({ 'skill.spec.yml': SPEC });
    const r = await run(dir, 'spec', 'explain', 'skill.spec.yml', '--input=go remote');
    expect(r.out).toBe(
      'input: go remote\nroute: remote\nroute_order: local -> remote\nforbid: guess\nmatched_rules:\n  - use_remote: Remote work.\n',
    );
  });

  it('refuses to decide without --trace-dir when trace.required is true, and writes a trace with it', async () => {
    const dir = project({ 'skill.spec.yml': `${SPEC}trace:\n  mode: event_log\n  required: true\n` });
    const refused = await run(dir, 'spec', 'decide', 'skill.spec.yml', '--input', 'x');
    expect(refused).toEqual({
      code: 1,
      out: '',
      err: 'error: trace.required is true; pass --trace-dir or use a spec that does not require tracing\n',
    });
    const r = await run(dir, 'spec', 'decide', 'skill.spec.yml', '--input', 'x', '--trace-dir', '.skillspec/traces');
    expect(r.code).toBe(0);
    const runs = readdirSync(join(dir, '.skillspec/traces'));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^run-\d+-\d+$/);
    const runDir = join('.skillspec/traces', runs[0]!);
    expect(r.err).toBe(
      `trace: wrote 5 event(s) to ${runDir}\ntrace: jsonl ${runDir}/trace.jsonl\ntrace: summary ${runDir}/summary.json\n`,
    );
    expect(existsSync(join(dir, runDir, 'summary.json'))).toBe(true);
  });

  it('says which trace file it could not write', async () => {
    const dir = project({ 'skill.spec.yml': SPEC, blocker: 'a file, not a folder' });
    const r = await run(dir, 'spec', 'decide', 'skill.spec.yml', '--input', 'x', '--trace-dir', 'blocker');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: failed to write blocker\/run-\d+-\d+\/events\/000001\.input_received\.json: Not a directory \(os error 20\)\n$/,
    );
  });

  it('does not need a trace dir for test on a trace-required spec', async () => {
    const dir = project({ 'skill.spec.yml': `${SPEC}trace:\n  mode: event_log\n  required: true\n` });
    expect((await run(dir, 'spec', 'test', 'skill.spec.yml')).code).toBe(0);
  });
});

describe('spec compile and imports', () => {
  it('compiles to markdown by default and to the loader targets', async () => {
    const dir = project({ 'skill.spec.yml': SPEC });
    expect((await run(dir, 'spec', 'compile', 'skill.spec.yml')).out.startsWith('# T\n')).toBe(true);
    const claude = await run(dir, 'spec', 'compile', 'skill.spec.yml', '--target', 'claude-skill');
    expect(claude.out.startsWith('---\nname: t-spec\ndescription: "')).toBe(true);
  });

  it('reports imports as JSON and exits 1 when one is missing', async () => {
    const dir = project({ 'skill.spec.yml': doc('imports:\n  g: {path: guide.md, role: reference, load: always}\n') });
    const r = await run(dir, 'spec', 'imports', 'skill.spec.yml');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { ok: boolean; imports: Array<{ status: string; resolved_path: string }> };
    expect(report.ok).toBe(false);
    expect(report.imports[0]).toMatchObject({ status: 'missing_file', resolved_path: 'guide.md' });
    expect((await run(dir, 'spec', 'validate', 'skill.spec.yml')).err).toBe(
      'error: import validation failed: g: missing_file (No such file or directory (os error 2))\n',
    );
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['spec'], 'name a verb'],
    [['spec', 'frobnicate', 'x.yml'], 'unknown verb "frobnicate"'],
    [['spec', 'decide', 'x.yml'], 'decide needs --input TEXT'],
    [['spec', 'validate'], 'validate takes exactly one spec path'],
    [['spec', 'compile', 'x.yml', '--target', 'html'], 'unknown target "html"'],
    [['spec', 'test', 'x.yml', '--input', 'x'], '--input is only for decide and explain'],
    [['spec', 'validate', 'x.yml', '--bogus'], "Unknown option '--bogus'"],
  ])('%j', async (args, message) => {
    const r = await run(tmpdir(), ...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});

const corpus = join(corpusDir, 'skillspec');
const haveCorpus = requireOrSkip(`the SkillSpec corpus (${corpus})`, existsSync(join(corpus, 'MANIFEST.json')));
describe.skipIf(!haveCorpus)('the built binary', () => {
  it('validates and tests a corpus spec, and rejects the invalid fixture with the reference message', () => {
    requireBuiltCli();
    const ok = runCli(['spec', 'test', 'valid/examples/rote-browse/skill.spec.yml'], { cwd: corpus });
    expect(ok.stdout).toBe('skillspec test: 8/8 passed\n');
    expect(ok.code).toBe(0);
    const bad = runCli(['spec', 'validate', 'invalid/conformance/invalid/import-cycle.skill.spec.yml'], {
      cwd: corpus,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: unknown reference "one" in imports.requires.imports.cycle\n');
  });
});
