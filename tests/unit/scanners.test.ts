/**
 * SPEC D250, D253, D254: `[scanners]` is read strictly, SARIF is read as hostile input, and
 * scanner findings are judged against the policy and the exceptions like built-in checks.
 */
import { describe, expect, it } from 'vitest';
import { parseToml } from '../../shared/ksf/toml';
import { readScanners, scannerArgv } from '../../shared/scanners/config';
import { judgeFindings } from '../../shared/scanners/review';
import { MAX_FINDINGS, parseSarif, severityOf, skillPath } from '../../shared/scanners/sarif';
import { validateException } from '../../shared/policy/exceptions';

const DIR = '/tmp/stage/tool';
const input = { scanner: 'sg', skillDir: DIR, files: new Set(['SKILL.md', 'scripts/run.sh']) };
const sarif = (results: unknown, rules: unknown[] = []) =>
  JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x', rules } }, results }] });
const loc = (uri: string, startLine?: unknown) => [
  { physicalLocation: { artifactLocation: { uri }, ...(startLine !== undefined ? { region: { startLine } } : {}) } },
];

function config(text: string) {
  const t = parseToml(text);
  if (!t.ok) throw new Error(t.error.message);
  return readScanners(t.value);
}

describe('[scanners] in kitbash.toml', () => {
  it('reads a scanner with its placeholders, default timeout and a stable id', () => {
    const c = config(
      '[scanners.semgrep]\ncommand = ["semgrep", "scan", "--config={project}/r.yml", "--output={sarif}", "{skill}"]\n',
    );
    if (!c.ok) throw new Error(c.error.message);
    const [d] = c.value.scanners;
    expect(d).toMatchObject({ name: 'semgrep', timeout: 120 });
    expect(d!.id).toMatch(/^[0-9a-f]{16}$/);
    expect(scannerArgv(d!, { skill: '/s', sarif: '/o.sarif', project: '/p' })).toEqual([
      'semgrep',
      'scan',
      '--config=/p/r.yml',
      '--output=/o.sarif',
      '/s',
    ]);
    const other = config('[scanners.semgrep]\ncommand = ["semgrep", "scan", "{skill}"]\n');
    expect(other.ok && other.value.scanners[0]!.id).not.toBe(d!.id);
  });

  it.each([
    ['[scanners]\nsemgrep = "semgrep"\n', '[scanners.semgrep] must be a table'],
    ['[scanners.semgrep]\ncommand = []\n', '[scanners.semgrep] command must be an array of 1 to 64 strings'],
    ['[scanners.semgrep]\ncommand = ["semgrep", "{skil}"]\n', 'unknown placeholder {skil}'],
    ['[scanners.semgrep]\ncommand = ["semgrep", "."]\n', 'must name the skill folder with {skill}'],
    ['[scanners.semgrep]\ncommand = ["{skill}"]\n', 'must start with the program to run'],
    [
      '[scanners.semgrep]\ncommand = ["semgrep", "{skill}"]\ntimeout = 0\n',
      'timeout must be a whole number of seconds',
    ],
    ['[scanners.semgrep]\ncommand = ["semgrep", "{skill}"]\nshell = true\n', 'unknown key "shell"'],
    ['[scanners.Sem]\ncommand = ["semgrep", "{skill}"]\n', 'a scanner name is lower-case'],
    ['[policy]\nblock_scanner_findings = "severe"\n', '[policy] block_scanner_findings must be one of'],
  ])('refuses %j in one line', (text, message) => {
    const c = config(text);
    expect(c.ok).toBe(false);
    if (!c.ok) {
      expect(c.error.file).toBe('kitbash.toml');
      expect(c.error.message).toContain(message);
    }
  });
});

describe('SARIF as hostile input', () => {
  it('maps levels and security-severity to four severities', () => {
    expect(severityOf('9.0', 'note')).toBe('critical');
    expect(severityOf(7, undefined)).toBe('high');
    expect(severityOf('4.5', 'error')).toBe('medium');
    expect(severityOf('0.5', 'error')).toBe('low');
    expect(severityOf('n/a', 'error')).toBe('high');
    expect(severityOf(undefined, undefined)).toBe('medium');
    expect(severityOf(42, 'note')).toBe('low');
  });

  it('places relative, ./, file:// and absolute URIs in the skill, and nothing outside it', () => {
    expect(skillPath('scripts/run.sh', DIR)).toMatchObject({ ok: true, value: 'scripts/run.sh' });
    expect(skillPath('./scripts/../SKILL.md', DIR)).toMatchObject({ ok: true, value: 'SKILL.md' });
    expect(skillPath(`file://${DIR}/scripts/run%2Esh`, DIR)).toMatchObject({ ok: true, value: 'scripts/run.sh' });
    expect(skillPath(`${DIR}/SKILL.md`, DIR)).toMatchObject({ ok: true, value: 'SKILL.md' });
    expect(skillPath('file:///C:/stage/tool/SKILL.md', 'C:\\stage\\tool')).toMatchObject({
      ok: true,
      value: 'SKILL.md',
    });
    for (const bad of [
      '../x',
      'scripts/../../x',
      `${DIR}x/SKILL.md`,
      'file:///etc/passwd',
      '/etc/passwd',
      'https://e.test/a',
      '%E0%A4%A',
    ])
      expect(skillPath(bad, DIR).ok, bad).toBe(false);
  });

  it('reads rule, level, message and line; drops unplaceable results with a note', () => {
    const r = parseSarif(
      sarif(
        [
          { ruleIndex: 0, message: { text: 'eval\u001b[2J of input' }, locations: loc('scripts/run.sh', 3) },
          { ruleId: 'r2', level: 'note', message: { text: 'x' }, locations: loc('SKILL.md', 'seven') },
          { ruleId: 'r3', level: 'error', message: { text: 'y' }, locations: loc('missing.txt', 1) },
          { ruleId: 'r4', level: 'error', message: { text: 'z' } },
          { ruleId: 'r5', kind: 'pass', message: { text: 'fine' } },
        ],
        [{ id: 'r1', properties: { 'security-severity': '9.8' } }],
      ),
      input,
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.findings).toEqual([
      {
        scanner: 'sg',
        rule: 'r1',
        check: 'scanner:sg/r1',
        severity: 'critical',
        message: 'eval [2J of input',
        file: 'scripts/run.sh',
        line: 3,
      },
      { scanner: 'sg', rule: 'r2', check: 'scanner:sg/r2', severity: 'low', message: 'x', file: 'SKILL.md', line: 1 },
      { scanner: 'sg', rule: 'r4', check: 'scanner:sg/r4', severity: 'high', message: 'z' },
    ]);
    expect(r.value.notes).toEqual(['sg: dropped a finding at missing.txt: no such file in the skill']);
  });

  it.each([
    ['', 'not JSON'],
    ['[]', 'not a JSON object'],
    ['{"version":"1.0","runs":[]}', 'SARIF version 1.0 is not 2.1.0'],
    ['{"runs":{}}', 'no "runs" array'],
    ['{"runs":[1]}', 'a run is not an object'],
    ['{"runs":[{"results":"x"}]}', 'is not an array'],
    ['{"runs":[{"results":[null]}]}', 'a result is not an object'],
    ['['.repeat(200000), 'not JSON'],
  ])('refuses %j', (text, message) => {
    const r = parseSarif(text, input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain(message);
  });

  it('survives wrong types in every field and bounds the count and the text', () => {
    const weird = [
      { ruleId: 7, ruleIndex: 99, level: 3, message: 'text', locations: 'x', properties: [] },
      {
        ruleId: 'a'.repeat(5000),
        message: { text: 'm'.repeat(5000) },
        locations: [{ physicalLocation: { artifactLocation: { uri: 5 } } }],
      },
      { ruleId: '__proto__', ruleIndex: -1, message: { text: null }, locations: [null] },
    ];
    const r = parseSarif(sarif(weird, [null, 'x']), input);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.findings.map((f) => f.rule)).toEqual(['unnamed', `${'a'.repeat(199)}…`, '__proto__']);
    expect(r.value.findings[1]!.message.length).toBe(300);
    const many = parseSarif(
      sarif(Array.from({ length: MAX_FINDINGS + 3 }, () => ({ ruleId: 'r', message: { text: 'm' } }))),
      input,
    );
    if (!many.ok) throw new Error(many.error.message);
    expect(many.value.findings).toHaveLength(MAX_FINDINGS);
    expect(many.value.notes).toEqual([`sg: 3 more findings not shown (at most ${MAX_FINDINGS} a scanner)`]);
  });
});

describe('judging scanner findings', () => {
  const integrity = `sha256-${'a'.repeat(64)}`;
  const f = (severity: 'critical' | 'high' | 'medium' | 'low', file?: string) => ({
    scanner: 'sg',
    rule: 'r1',
    check: 'scanner:sg/r1',
    severity,
    message: 'm',
    ...(file ? { file, line: 3 } : {}),
  });
  const entry = validateException({
    skill: 'tool',
    integrity,
    check: 'scanner:sg/r1',
    file: 'scripts/run.sh',
    line: 3,
    by: 'me',
    reason: 'read it',
  });
  if (!entry.ok) throw new Error(entry.error.message);

  it('is advisory without a policy, and blocks at or above block_scanner_findings', () => {
    const ctx = { skill: 'tool', integrity, exceptions: [], unconfirmed: [] };
    expect(judgeFindings([f('critical')], ctx).findings[0]!.status).toBe('advisory');
    const j = judgeFindings([f('critical'), f('high'), f('medium')], { ...ctx, blockAt: 'high' });
    expect(j.findings.map((x) => x.status)).toEqual(['blocking', 'blocking', 'advisory']);
  });

  it('accepts only by a confirmed entry naming the exact finding; an unconfirmed one explains', () => {
    const base = { skill: 'tool', integrity, blockAt: 'low' as const };
    const ok = judgeFindings([f('high', 'scripts/run.sh'), f('high')], {
      ...base,
      exceptions: [entry.value],
      unconfirmed: [],
    });
    expect(ok.findings.map((x) => x.status)).toEqual(['accepted', 'blocking']);
    expect(ok.accepted).toEqual([
      { id: 'scanner:sg/r1', detail: 'm', file: 'scripts/run.sh', line: 3, by: 'me', reason: 'read it' },
    ]);
    const held = judgeFindings([f('high', 'scripts/run.sh')], { ...base, exceptions: [], unconfirmed: [entry.value] });
    expect(held.findings[0]!.status).toBe('blocking');
    expect(held.unconfirmed[0]).toMatch(
      /^exception for tool scanner:sg\/r1 at scripts\/run\.sh:3 in kitbash\.toml arrived with the project/,
    );
  });

  it('an exception must name a scanner rule or a blocking check', () => {
    expect(validateException({ ...entry.value, check: 'scanner:/r1' }).ok).toBe(false);
    expect(validateException({ ...entry.value, check: 'scanner:sg/' }).ok).toBe(false);
  });
});
