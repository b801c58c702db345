/**
 * The install and update review list every power a skill carries into each agent (CLI text
 * and JSON), and an update that adds a hook is an escalation that `--yes` does not approve.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InstallReview } from '../../shared/lock/review';
import { readLock } from '../../main/services/lock';
import { requireOrSkip } from '../support/paths';
import { cleanupTemps, cli, gitAvailable, gitRepo, temp, write } from './helpers';

afterAll(cleanupTemps);

const hasGit = requireOrSkip('git', gitAvailable());

function project(): string {
  const p = temp();
  write(p, { 'kitbash.toml': '[project]\ntargets = ["claude-code", "cursor"]\n' });
  return p;
}

const front = (extra: string) =>
  `---\nname: guard\ndescription: Guards the shell.\n${extra}---\n# Guard\n\nRun the check.\n`;

const HOOK = `hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check.sh --strict
`;

describe.skipIf(!hasGit)('the review of a skill with powers', () => {
  it('names each hook, tool grant and load-time command, per agent, in text and JSON', async () => {
    const repo = gitRepo({
      'skills/guard/SKILL.md': `${front(`allowed-tools: Bash(*), Write, WebFetch\n${HOOK}`)}\nBranch: !\`git branch --show-current\`\n`,
    });
    const p = project();
    const text = await cli(p, 'install', `${repo.url}#:skills/guard`, '--dry-run');
    // A load-time command is a blocking safety finding; the review still says everything.
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      '  powers, as compile delivers them to each agent:\n    in Claude Code:\n      hook: PreToolUse [Bash]: ./scripts/check.sh --strict — the agent runs it on that event\n      allowed-tools: Bash(*) — the agent may use it without asking\n      allowed-tools: Write — the agent may use it without asking\n      allowed-tools: WebFetch — the agent may use it without asking\n      load-time command: git branch --show-current — the agent runs it when the skill loads\n    in Cursor:\n      hook: PreToolUse [Bash]: ./scripts/check.sh --strict — not delivered: compile does not write it for this agent\n',
    );
    expect(text.stdout).not.toContain('declares no permissions');

    const json = await cli(p, 'install', `${repo.url}#:skills/guard`, '--dry-run', '--json');
    const review = JSON.parse(json.stdout) as InstallReview;
    const byAgent = Object.fromEntries(review.nodes[0]!.powers.agents.map((a) => [a.target, a.powers]));
    expect(byAgent['claude-code']).toEqual([
      { kind: 'hooks', value: 'PreToolUse [Bash]: ./scripts/check.sh --strict', status: 'acts' },
      { kind: 'allowed-tools', value: 'Bash(*)', status: 'acts' },
      { kind: 'allowed-tools', value: 'Write', status: 'acts' },
      { kind: 'allowed-tools', value: 'WebFetch', status: 'acts' },
      { kind: 'dynamic-context', value: 'git branch --show-current', status: 'acts' },
    ]);
    expect(byAgent['cursor']!.filter((x) => x.status !== 'dropped')).toEqual([
      { kind: 'dynamic-context', value: 'git branch --show-current', status: 'inert' },
    ]);
  });

  it('an update adding a hook is an escalation: --yes does not apply it, --approve <integrity> does', async () => {
    const repo = gitRepo({ 'skills/guard/SKILL.md': front('') });
    const p = project();
    const src = `${repo.url}#:skills/guard`;
    expect((await cli(p, 'install', src, '--yes', '--no-compile')).code).toBe(0);
    repo.commit({ 'skills/guard/SKILL.md': front(HOOK) });

    const yes = await cli(p, 'update', 'guard', '--yes', '--no-compile');
    expect(yes.code).toBe(1);
    expect(yes.stdout).toContain(
      '    hooks: + PreToolUse [Bash]: ./scripts/check.sh --strict  ⚠ escalation — a new hook: the agent runs this command on its own\n',
    );
    expect(yes.stderr).toMatch(
      /guard: not applied — the update escalates \(hooks\), and --yes does not approve an escalation\. Read the review, then rerun with --approve sha256-[0-9a-f]{64}\./,
    );
    const installedMd = () => readFileSync(join(p, '.kitbash', 'skills', 'guard', 'SKILL.md'), 'utf8');
    expect(installedMd()).not.toContain('hooks:');

    const reviews = JSON.parse((await cli(p, 'update', 'guard', '--json')).stdout) as InstallReview[];
    expect(reviews[0]!.changes!.filter((c) => c.escalation).map((c) => c.field)).toEqual(['hooks']);
    const wrong = await cli(p, 'update', 'guard', '--approve', `sha256-${'0'.repeat(64)}`, '--no-compile');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`but what was fetched now hashes to ${reviews[0]!.integrity}`);
    expect(installedMd()).not.toContain('hooks:');

    const approved = await cli(p, 'update', 'guard', '--approve', reviews[0]!.integrity, '--no-compile');
    expect(approved.code).toBe(0);
    expect(installedMd()).toContain('hooks:');
    const lock = readLock(p);
    expect(lock.ok && lock.value.entries[0]!.integrity).toBe(reviews[0]!.nodes[0]!.integrity);
  });

  it('an update that changes nothing of its powers is still applied by --yes', async () => {
    const repo = gitRepo({ 'skills/guard/SKILL.md': front(HOOK) });
    const p = project();
    expect((await cli(p, 'install', `${repo.url}#:skills/guard`, '--yes', '--no-compile')).code).toBe(0);
    repo.commit({ 'skills/guard/SKILL.md': `${front(HOOK)}\nOne more line.\n` });
    const yes = await cli(p, 'update', 'guard', '--yes', '--no-compile');
    expect(yes.stderr).toBe('');
    expect(yes.code).toBe(0);
  });
});
