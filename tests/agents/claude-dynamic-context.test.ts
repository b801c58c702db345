/**
 * SPEC D244 against the runtime: the real Claude Code (the version pinned in tooling/agents)
 * loads a skill Skillsmith compiled whose SKILL.md holds load-time commands in several forms.
 * Each command writes a marker file; a form `dynamic-context` reports must have run before the
 * model saw the skill, and a form it does not report must not have run. The expectation of
 * each case is computed from the same text with the check's own finder, so the test fails
 * whenever the check and the agent disagree.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillIntegrity } from '../../main/services/lock/index';
import { findDynamicContext } from '../../shared/lint/safety/dynamic-context';
import { exceptionToml } from '../../shared/policy/exceptions';
import { claudeCode } from '../../shared/targets/claude-code';
import { tempDir, installSkills } from '../sandbox/helpers';
import { confirmAllExceptions } from '../support/exceptions';
import { repoRoot, runCli } from '../support/paths';
import { agentPath, claudeArgv, claudeEnv } from './harness/claude';
import { PINNED } from './harness/install';
import { agentsOrSkip, networkForSuite, runAgent } from './harness/suite';

const bins = agentsOrSkip();

interface Case {
  readonly id: string;
  /** What D244 says of the form: run while the skill loads, or left as text. */
  readonly runs: boolean;
  /** The form, with `M` standing for the marker folder. */
  readonly text: string;
}

// `M` is replaced by the marker folder; every command touches M/<id>, so a marker exists only
// if that command ran. `$((6*7))` makes the printed line differ from the command's own text.
const CASES: readonly Case[] = [
  { id: 'line-start', runs: true, text: '!`touch M/line-start && echo ran-$((6*7))-line-start`' },
  { id: 'after-space', runs: true, text: 'Current branch: !`touch M/after-space`' },
  { id: 'list-item', runs: true, text: '- !`touch M/list-item`' },
  { id: 'fenced-block', runs: true, text: '```bash\n!`touch M/fenced-block`\n```' },
  { id: 'double-backtick-span', runs: true, text: 'Shown as `` !`touch M/double-backtick-span` `` here.' },
  { id: 'across-lines', runs: true, text: 'Then !`echo first &&\ntouch M/across-lines`' },
  { id: 'bang-fence', runs: true, text: '```!\ntouch M/bang-fence\n```' },
  { id: 'bang-fence-inline', runs: true, text: 'Inline ```!touch M/bang-fence-inline``` too.' },
  { id: 'glued-to-word', runs: false, text: 'Hello!`touch M/glued-to-word`' },
  { id: 'after-paren', runs: false, text: '(!`touch M/after-paren`)' },
  { id: 'inside-code-span', runs: false, text: 'Use `ls !`touch M/inside-code-span` now.' },
  { id: 'space-after-bang', runs: false, text: 'Say ! `touch M/space-after-bang` aloud.' },
  { id: 'tilde-fence', runs: false, text: '~~~!\ntouch M/tilde-fence\n~~~' },
];

const NAME = 'loader';

/** The SKILL.md: each case a paragraph of its own, between plain lines. */
function bodyFor(markers: string): { body: string; at: Map<string, [number, number]> } {
  let body = `# ${NAME}\n\nThe lines below are load-time commands in every form.\n\n`;
  const at = new Map<string, [number, number]>();
  for (const c of CASES) {
    const text = c.text.replaceAll('M/', `${markers}/`);
    at.set(c.id, [body.length, body.length + text.length]);
    body += `${text}\n\nNext case.\n\n`;
  }
  return { body: `${body}End of the skill.\n`, at };
}

/** A `[[policy.exceptions]]` entry for each line `dynamic-context` reports, as a reviewer accepts them. */
function acceptFindings(root: string, body: string): void {
  const integrity = skillIntegrity(join(root, '.kitbash', 'skills', NAME));
  if (!integrity.ok) throw new Error(integrity.error.message);
  const lines = new Set(findDynamicContext(body).map((h) => body.slice(0, h.offset).split('\n').length));
  const entries = [...lines].map((line) =>
    exceptionToml({
      skill: NAME,
      integrity: integrity.value,
      check: 'dynamic-context',
      file: 'SKILL.md',
      line,
      by: 'the dynamic-context test',
      reason: 'every command only touches a marker in the test folder',
    }),
  );
  writeFileSync(
    join(root, 'kitbash.toml'),
    `[project]\ntargets = [${JSON.stringify(claudeCode.id)}]\n\n${entries.join('\n')}`,
  );
  confirmAllExceptions(root);
}

describe.skipIf(!bins)('the real Claude Code runs what dynamic-context reports, and nothing else', () => {
  const net = networkForSuite();

  it('is the version SPEC D244 was read from', () => {
    const v = spawnSync(bins!.claude, ['--version'], { encoding: 'utf8', timeout: 60_000 });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(`${PINNED.claude} (Claude Code)`);
    const spec = readFileSync(join(repoRoot, 'spec', 'SPEC.md'), 'utf8');
    const d244 = spec.slice(spec.indexOf('### D244'), spec.indexOf('\n### ', spec.indexOf('### D244') + 1));
    expect(d244).toContain(`**${PINNED.claude}**`);
  });

  it('loading the skill runs every reported form and no other', async () => {
    const root = tempDir('skillsmith-agent-dynctx-');
    const markers = join(root, 'markers');
    mkdirSync(markers);
    const { body, at } = bodyFor(markers);
    installSkills(root, {
      [NAME]: { description: 'Loads the current state. Use when asked to load the state.', body },
    });
    acceptFindings(root, body);
    const compiled = runCli(['compile'], { cwd: root });
    expect(compiled.code, compiled.stderr).toBe(0);
    const delivered = readFileSync(join(root, claudeCode.skillDir!, NAME, 'SKILL.md'), 'utf8');
    // What Claude Code preprocesses is the body compile delivered: the source's cases, unchanged.
    expect(delivered).toContain(body);

    const hits = findDynamicContext(body);
    const reported = (id: string): boolean => {
      const [start, end] = at.get(id)!;
      return hits.some((h) => h.offset < end && h.offset + h.length > start);
    };
    // The check reads the cases as D244 describes them (so both kinds are covered).
    expect(CASES.map((c) => [c.id, reported(c.id)])).toEqual(CASES.map((c) => [c.id, c.runs]));

    const r = await runAgent({
      net: net(),
      dir: tempDir('skillsmith-agent-run-'),
      cwd: root,
      script: [{ tool: 'Skill', input: { skill: NAME } }, { text: 'Loaded.' }],
      argv: () => claudeArgv(bins!.claude, 'Load the state.'),
      env: (url, home) => ({ ...claudeEnv(url, home), PATH: agentPath(false) }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.turns.length).toBe(2);
    const sent = JSON.stringify(r.turns[1]!.body.messages);
    const wasSent = (s: string) => sent.includes(JSON.stringify(s).slice(1, -1));
    expect(wasSent('The lines below are load-time commands in every form.'), 'the skill was not loaded').toBe(true);

    // The agent and the check agree on every case: a marker exists exactly where a finding is.
    expect(CASES.map((c) => [c.id, existsSync(join(markers, c.id))])).toEqual(CASES.map((c) => [c.id, reported(c.id)]));
    // The model received a command's output in place of a reported form, and an unreported one as written.
    expect(wasSent('ran-42-line-start')).toBe(true);
    for (const c of CASES) expect([c.id, wasSent(c.text.replaceAll('M/', `${markers}/`))]).toEqual([c.id, !c.runs]);
  });
});
