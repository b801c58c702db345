/**
 * The editor's diagnostics (renderer/src/views/editor/analyze.ts): the same shared/
 * engine as `skillsmith lint`, mapped onto exact ranges of the unsaved buffers, with quick
 * fixes only where the fix is certain.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, tomlKeys, type Diagnostic } from '../../renderer/src/views/editor/analyze';
import { loadSkill } from '../../shared/ksf/load';
import { lintSkill } from '../../shared/lint/checks';
import { checkSpecText } from '../../shared/skillspec';
import { repoRoot } from '../support/paths';
import { apply } from './edits';

const SKILLS = join(repoRoot, 'examples/workspace/.kitbash/skills');

function readSkill(dir: string): Record<string, string> {
  const root = join(SKILLS, dir);
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p).split('\\').join('/')] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

const TOML = [
  '[skill]',
  'name = "demo-skill"',
  'version = "1.0.0"',
  'description = "A demo skill for the editor tests."',
  '',
  '[context]',
  'budget = 500',
  'standing = 40',
  '',
].join('\n');
const MD = '# Demo\n\nChecks a change against the rules and reports findings.\n\n## Steps\n\n1. Read the diff.\n';

const at = (d: Diagnostic) => [d.file, d.range.startLine, d.range.startColumn, d.range.endLine, d.range.endColumn];

describe('analyze: the same verdicts as the CLI', () => {
  it('fails exactly the example skills lint fails, and warns where it warns', () => {
    for (const dir of readdirSync(SKILLS)) {
      const texts = readSkill(dir);
      const enc = new TextEncoder();
      const loaded = loadSkill(
        {
          root: '',
          entries: Object.entries(texts).map(([path, t]) => ({ kind: 'file' as const, path, bytes: enc.encode(t) })),
        },
        { nameHint: dir },
      );
      expect(loaded.ok, dir).toBe(true);
      if (!loaded.ok) continue;
      const checks = lintSkill(loaded.value).filter((c) => c.status !== 'pass');
      const a = analyze({ dir, texts });
      expect(new Set(a.diagnostics.map((d) => d.code)), dir).toEqual(new Set(checks.map((c) => c.id)));
      expect(a.summary.errors > 0, dir).toBe(checks.some((c) => c.status === 'fail'));
    }
  });

  it('marks a finding in a file that is not editable (dependency-audit: remote-exec in scripts/audit.sh) at its span', () => {
    const texts = readSkill('dependency-audit');
    const a = analyze({ dir: 'dependency-audit', texts });
    const d = a.diagnostics.find((x) => x.code === 'remote-exec')!;
    expect(d.file).toBe('scripts/audit.sh');
    expect(d.blocking).toBe(true);
    const line = texts['scripts/audit.sh']!.split('\n')[d.range.startLine - 1]!;
    expect(line.slice(d.range.startColumn - 1)).toMatch(/^curl/);
  });
});

describe('analyze: hard errors at their lines', () => {
  it('puts each manifest problem on the value of its key, or on its table when the key is missing', () => {
    const toml = TOML.replace('version = "1.0.0"', 'version = "one"')
      .replace('budget = 500', 'budget = 5')
      .replace('description = "A demo skill for the editor tests."\n', '');
    const a = analyze({ dir: 'demo-skill', texts: { 'skill.toml': toml, 'SKILL.md': MD } });
    expect(a.meter).toBeNull();
    expect(a.diagnostics.map((d) => [d.code, ...at(d).slice(1, 3), d.message])).toEqual([
      ['manifest', 1, 1, 'invalid manifest: skill.description must be 10–200 characters'],
      ['manifest', 3, 11, 'invalid manifest: skill.version "one" is not semver'],
      ['manifest', 6, 10, 'invalid manifest: context.budget is required and must be 50–20000'],
    ]);
    // The value's range: `"one"` is columns 11–16.
    expect(a.diagnostics[1]!.range).toEqual({ startLine: 3, startColumn: 11, endLine: 3, endColumn: 16 });
  });

  it("puts a TOML syntax error at the parser's line and column", () => {
    const a = analyze({
      dir: 'demo-skill',
      texts: { 'skill.toml': TOML.replace('standing = 40', 'standing = = 40'), 'SKILL.md': MD },
    });
    expect(a.diagnostics).toHaveLength(1);
    expect(a.diagnostics[0]!.code).toBe('toml');
    expect(a.diagnostics[0]!.range.startLine).toBe(8);
    expect(a.diagnostics[0]!.message).toMatch(/^invalid TOML: /);
  });

  it('shows every problem of a manifest with three distinct errors, not only the first', () => {
    // Two syntax errors the parser meets one after the other, then a field out of range.
    const toml = TOML.replace('name = "demo-skill"', 'name = demo-skill')
      .replace('budget = 500', 'budget = 500 500')
      .replace('standing = 40', 'standing = 4000');
    const a = analyze({ dir: 'demo-skill', texts: { 'skill.toml': toml, 'SKILL.md': MD } });
    expect(a.diagnostics.map((d) => [d.code, d.severity, d.range.startLine])).toEqual([
      ['toml', 'error', 2],
      ['toml', 'error', 7],
      ['manifest', 'error', 8],
    ]);
    expect(a.diagnostics[2]!.message).toBe('invalid manifest: context.standing must be 0–500');
  });

  it('leaves out a field whose line is a syntax error: that error already says what is wrong there', () => {
    const toml = TOML.replace('version = "1.0.0"', 'version = 1.0.0.0');
    const a = analyze({ dir: 'demo-skill', texts: { 'skill.toml': toml, 'SKILL.md': MD } });
    expect(a.diagnostics.map((d) => [d.code, d.range.startLine])).toEqual([['toml', 3]]);
  });

  it('indexes TOML keys under their tables, dotted and quoted keys included', () => {
    const keys = tomlKeys(
      '[skill]\nname = "x"\n  "quoted.key" = 1\n[mcp.servers.db]\ncommand = "x" # c\nenv.HOME = "/"\n',
    );
    expect(keys.map((k) => [k.path, k.line, k.header])).toEqual([
      ['skill', 1, true],
      ['skill.name', 2, false],
      ['skill.quoted.key', 3, false],
      ['mcp.servers.db', 4, true],
      ['mcp.servers.db.command', 5, false],
      ['mcp.servers.db.env.HOME', 6, false],
    ]);
  });
});

describe('analyze: findings at their exact span, with quick fixes where certain', () => {
  it('a zero-width character is blocking, at its column, and its fix removes exactly it', () => {
    const md = MD.replace('against the', 'against\u200B\u200D the');
    const a = analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': md } });
    const d = a.diagnostics.find((x) => x.code === 'visible-text')!;
    expect(d.blocking).toBe(true);
    expect(d.severity).toBe('error');
    expect(d.message).toMatch(/U\+200B, U\+200D.*blocks install$/);
    const col = md.split('\n')[2]!.indexOf('\u200B') + 1;
    expect(at(d)).toEqual(['SKILL.md', 3, col, 3, col + 2]);
    expect(d.fixes).toHaveLength(1);
    const fixed = apply(md, d.fixes[0]!.edits);
    expect(fixed).toBe(MD);
    expect(analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': fixed } }).diagnostics).toEqual([]);
  });

  it('offers one fix for all runs when a file has several', () => {
    const md = MD.replace('Read', 'Re\u2060ad').replace('Checks', 'Che\u200Bcks');
    const d = analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': md } }).diagnostics.filter(
      (x) => x.code === 'visible-text',
    );
    expect(d).toHaveLength(2);
    const all = d[0]!.fixes.find((f) => /all 2/.test(f.title))!;
    expect(apply(md, all.edits)).toBe(MD);
  });

  it('a secret is marked at its span with no fix (removing it is not certain to be right)', () => {
    // Not one run of consecutive letters: that is a sequential fake, not a key (SPEC D75).
    const key = 'AKIA' + 'QWRTPZ2345BNMKLJ';
    const md = `${MD}\nUse ${key} to read the bucket.\n`;
    const d = analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': md } }).diagnostics.find(
      (x) => x.code === 'secrets',
    )!;
    const line = md.split('\n').findIndex((l) => l.includes(key)) + 1;
    expect(at(d)).toEqual(['SKILL.md', line, 5, line, 5 + key.length]);
    expect(d.blocking).toBe(true);
    expect(d.fixes).toEqual([]);
  });

  it('a template variable that does not resolve is marked at its braces', () => {
    const md = `${MD}2. Then {{prompt.missing}} applies.\n`;
    const d = analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': md } }).diagnostics.find(
      (x) => x.code === 'references',
    )!;
    const line = md.split('\n').findIndex((l) => l.includes('{{')) + 1;
    const col = md.split('\n')[line - 1]!.indexOf('{{') + 1;
    expect(at(d)).toEqual(['SKILL.md', line, col, line, col + '{{prompt.missing}}'.length]);
    // With the prompt file present, it resolves (and its text counts towards the body).
    const ok = analyze({
      dir: 'demo-skill',
      texts: { 'skill.toml': TOML, 'SKILL.md': md, 'prompts/missing.md': 'Extra words here.\n' },
    });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.meter!.bodyTokens).toBeGreaterThan(
      analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': MD } }).meter!.bodyTokens,
    );
  });
});

describe('analyze: skill.spec.yml', () => {
  const SPEC = 'schema: skillspec/v0\nid: demo\ntitle: Demo\ndescription: What the demo decides.\n';

  it('a plain value containing ": " is a parse error at its line, and the fix quotes it into a valid spec', () => {
    const bad = SPEC.replace('title: Demo', 'title: Demo: the tests');
    const d = analyze({
      dir: 'demo-skill',
      texts: { 'skill.toml': TOML, 'SKILL.md': MD, 'skill.spec.yml': bad },
    }).diagnostics.find((x) => x.file === 'skill.spec.yml')!;
    expect(d.code).toBe('spec/parse_yaml');
    expect(d.range.startLine).toBe(3);
    expect(d.fixes.map((f) => f.title)).toEqual(['Quote the value (it contains ": ")']);
    const fixed = apply(bad, d.fixes[0]!.edits);
    expect(fixed).toBe(SPEC.replace('title: Demo', 'title: "Demo: the tests"'));
    expect(checkSpecText(fixed).ok).toBe(true);
  });

  it('a validation error without a position is placed on the field it names', () => {
    const bad = SPEC.replace('id: demo', 'id: Not Valid');
    const d = analyze({
      dir: 'demo-skill',
      texts: { 'skill.toml': TOML, 'SKILL.md': MD, 'skill.spec.yml': bad },
    }).diagnostics.find((x) => x.file === 'skill.spec.yml')!;
    expect(d.code).toBe('spec/invalid_identifier');
    expect([d.range.startLine, d.range.startColumn]).toEqual([2, 5]);
    expect(d.fixes).toEqual([]);
  });

  it('a valid spec has no findings (the engine agrees with checkSpecText)', () => {
    expect(checkSpecText(SPEC).ok).toBe(true);
    expect(
      analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': MD, 'skill.spec.yml': SPEC } }).diagnostics,
    ).toEqual([]);
  });
});

describe('analyze: the budget meter and the standing stub', () => {
  it("reports the lint's body and stub figures and where the stub is in SKILL.md", () => {
    const fm = '---\nname: demo\n---\n';
    const a = analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': fm + MD } });
    expect(a.meter).toMatchObject({ budget: 500, standing: 40, disclosure: 'lazy' });
    expect(a.meter!.bodyTokens).toBe(Math.ceil(MD.length / 4));
    expect(a.meter!.stubTokens).toBe(Math.ceil('Checks a change against the rules and reports findings.'.length / 4));
    // Frontmatter (3 lines) + heading + blank: the stub is line 6.
    expect(a.stub).toMatchObject({ startLine: 6, endLine: 6 });
  });

  it('over budget is an error anchored on context.budget', () => {
    const long = `${MD}\n${'More instructions for the agent to follow. '.repeat(60)}\n`;
    const d = analyze({ dir: 'demo-skill', texts: { 'skill.toml': TOML, 'SKILL.md': long } }).diagnostics.find(
      (x) => x.code === 'budget',
    )!;
    expect(d.severity).toBe('error');
    expect(at(d).slice(0, 3)).toEqual(['skill.toml', 7, 10]);
  });
});

describe('skill.toml completion', () => {
  it('offers the manifest tables not in the file after "[", and the unset keys of the current table', async () => {
    const { tomlCompletions } = await import('../../renderer/src/views/editor/tomlComplete');
    const text = `${TOML}[\n`;
    const lines = text.split('\n');
    const tables = tomlCompletions(text, lines.length - 1, 2).map((s) => s.label);
    expect(tables).toEqual(['triggers', 'permissions', 'artifacts', 'targets', 'lore', 'dependencies', 'mcp']);
    // On an empty line under [context], only disclosure is left to set.
    const ctx = TOML.replace('standing = 40\n', 'standing = 40\n\n');
    const at = ctx.split('\n').indexOf('standing = 40') + 2;
    expect(tomlCompletions(ctx, at, 1).map((s) => s.insert)).toEqual(['disclosure = ']);
    // Not after a key's `=`.
    expect(tomlCompletions(TOML, 7, 'budget = '.length + 1)).toEqual([]);
  });
});
