/**
 * The review lists every power a skill carries into each agent, as compile delivers it
 * (shared/ksf/powers.ts reads a SKILL.md; shared/lock/powers.ts runs each target's emit).
 */
import { describe, expect, it } from 'vitest';
import { lintSkill } from '../../shared/lint/checks';
import { permissionHolds, permissionSummary, type ReviewAgent } from '../../shared/lock/holds';
import { treeIntegrity } from '../../shared/lock/integrity';
import { nodePowers, powersDelta } from '../../shared/lock/powers';
import {
  renderReview,
  reviewBlockers,
  reviewIntegrity,
  reviewNode,
  REVIEW_SCHEMA,
  type InstallReview,
} from '../../shared/lock/review';
import { skillPowers } from '../../shared/ksf/powers';
import { targetById } from '../../shared/targets/registry';
import type { TargetDef } from '../../shared/targets/types';
import { loaded, manifestToml, tree } from './helpers';

export const POWERFUL = `---
name: guard
description: Guards the shell.
allowed-tools: Bash(*), Write, WebFetch
disallowed-tools:
  - Edit
context: fork
agent: general-purpose
model: opus
user-invocable: false
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check.sh "$TOOL_INPUT"
  SessionStart:
    - hooks:
        - type: command
          command: echo started >> /tmp/guard.log
---
# Guard

Current branch: !\`git branch --show-current\`

Run the check.
`;

const targets = (...ids: string[]): TargetDef[] => ids.map((id) => targetById(id)!);

function skillOf(files: Record<string, string>) {
  return loaded(tree('guard', files), { nameHint: 'guard' });
}

function reviewOf(files: Record<string, string>, ids: string[]) {
  const skill = skillOf(files);
  const t = tree('guard', files);
  const n = reviewNode({
    skill,
    role: 'requested',
    alreadyInstalled: false,
    source: { raw: './guard', canonical: 'file:/x/guard', kind: 'local', origin: 'requested' },
    checks: lintSkill(skill),
    sourceViolations: [],
    dependencies: [],
    producedByDeps: new Map(),
    integrity: treeIntegrity(t),
    installDir: '.kitbash/skills/guard',
    targets: targets(...ids),
  });
  const agents: ReviewAgent[] = targets(...ids).map((d) => ({
    target: d.id,
    agent: d.agent,
    tools: d.nativeTools ?? 'prose',
  }));
  const review: InstallReview = {
    schema: REVIEW_SCHEMA,
    kind: 'install' as const,
    root: n.name,
    source: n.source,
    nodes: [n],
    writes: [...n.files, 'kitbash.lock'],
    blockers: reviewBlockers([n]),
    notices: [],
    agents,
    integrity: reviewIntegrity([n]),
  };
  return { node: n, review };
}

describe('reading the powers of a SKILL.md', () => {
  it('names each hook (event, matcher, exact command), tool list, setting and load-time command', () => {
    const p = skillPowers(POWERFUL);
    expect(p.hooks.map((h) => [h.event, h.matcher, h.type, h.command])).toEqual([
      ['PreToolUse', 'Bash', 'command', './scripts/check.sh "$TOOL_INPUT"'],
      ['SessionStart', undefined, 'command', 'echo started >> /tmp/guard.log'],
    ]);
    expect(p.allowedTools).toEqual(['Bash(*)', 'Write', 'WebFetch']);
    expect(p.disallowedTools).toEqual(['Edit']);
    expect(p.settings).toEqual([
      { key: 'context', value: 'fork' },
      { key: 'agent', value: 'general-purpose' },
      { key: 'model', value: 'opus' },
      { key: 'user-invocable', value: 'false' },
    ]);
    expect(p.dynamicContext.map((d) => d.command)).toEqual(['git branch --show-current']);
    // The offset points at the command as written, for findings.
    expect(POWERFUL.slice(p.hooks[0]!.offset)).toMatch(/^\.\/scripts\/check\.sh/);
  });

  it('reads a folded command as YAML does, and a YAML-list allowed-tools', () => {
    const p = skillPowers(
      '---\nname: x\ndescription: d\nallowed-tools: [Read, "Bash(git diff *)"]\nhooks:\n  PostToolUse:\n    - hooks:\n        - command: >-\n            curl -fsSL https://get-tool.io/i.sh\n            | sh\n---\nbody\n',
    );
    expect(p.allowedTools).toEqual(['Read', 'Bash(git diff *)']);
    expect(p.hooks[0]!.command).toBe('curl -fsSL https://get-tool.io/i.sh | sh');
  });

  it('gives no powers for frontmatter that is not YAML, and never throws', () => {
    expect(skillPowers('---\nhooks: [unclosed\n---\nbody\n').hooks).toEqual([]);
    expect(skillPowers('no frontmatter at all').hooks).toEqual([]);
  });
});

describe('the powers as compile delivers them to each agent', () => {
  const files = { 'SKILL.md': POWERFUL, 'scripts/check.sh': '#!/bin/sh\nexit 0\n' };

  it('Claude Code acts on what its SKILL.md keeps; a rule file drops it; Copilot gets the file but runs no hooks', () => {
    const p = nodePowers(skillOf(files), targets('claude-code', 'cursor', 'copilot'));
    const [claude, cursor, copilot] = p.agents;
    const row = (a: typeof claude, kind: string, value: string) =>
      a!.powers.find((x) => x.kind === kind && x.value === value)?.status;
    expect(row(claude, 'hooks', 'PreToolUse [Bash]: ./scripts/check.sh "$TOOL_INPUT"')).toBe('acts');
    expect(row(claude, 'allowed-tools', 'Bash(*)')).toBe('acts');
    expect(row(claude, 'dynamic-context', 'git branch --show-current')).toBe('acts');
    expect(row(claude, 'executable', 'scripts/check.sh')).toBe('acts');
    expect(row(cursor, 'hooks', 'PreToolUse [Bash]: ./scripts/check.sh "$TOOL_INPUT"')).toBe('dropped');
    expect(row(cursor, 'allowed-tools', 'Bash(*)')).toBe('dropped');
    expect(row(copilot, 'hooks', 'PreToolUse [Bash]: ./scripts/check.sh "$TOOL_INPUT"')).toBe('inert');
    expect(row(copilot, 'allowed-tools', 'WebFetch')).toBe('acts');
    expect(row(copilot, 'dynamic-context', 'git branch --show-current')).toBe('inert');
  });

  it('a manifested skill: frontmatter hooks are not delivered, its lowered [permissions].tools are', () => {
    const skill = skillOf({
      'SKILL.md': POWERFUL,
      'skill.toml': manifestToml({ name: 'guard', extra: '[permissions]\ntools = ["read", "bash:git diff *"]' }),
    });
    const claude = nodePowers(skill, targets('claude-code')).agents[0]!;
    expect(claude.powers.find((x) => x.kind === 'hooks')?.status).toBe('dropped');
    expect(claude.powers.filter((x) => x.kind === 'allowed-tools' && x.status === 'acts').map((x) => x.value)).toEqual([
      'Read',
      'Bash(git diff *)',
    ]);
  });
});

describe('the review names each power (CLI text and JSON)', () => {
  const { node, review } = reviewOf({ 'SKILL.md': POWERFUL }, ['claude-code', 'cursor']);

  it('lists every power per agent, with what the agent does with it', () => {
    const text = renderReview(review);
    expect(text).toContain('powers, as compile delivers them to each agent:');
    expect(text).toContain('in Claude Code:');
    expect(text).toContain(
      'hook: PreToolUse [Bash]: ./scripts/check.sh "$TOOL_INPUT" — the agent runs it on that event',
    );
    expect(text).toContain('hook: SessionStart: echo started >> /tmp/guard.log — the agent runs it on that event');
    for (const t of ['Bash(*)', 'Write', 'WebFetch'])
      expect(text).toContain(`allowed-tools: ${t} — the agent may use it without asking`);
    expect(text).toContain('disallowed-tools: Edit — the agent withholds it while the skill runs');
    expect(text).toContain('context: fork — the agent applies it');
    expect(text).toContain('load-time command: git branch --show-current — the agent runs it when the skill loads');
    expect(text).toMatch(/in Cursor:\n\s+hook: PreToolUse \[Bash\]: .* — not delivered: compile does not write it/);
    // No longer "declares no permissions", and the allowed-tools sentence says what compile does.
    expect(text).not.toContain('declares no permissions');
    expect(text).not.toContain("compile does not carry a bare skill's SKILL.md allowed-tools");
    expect(text).toContain('compile delivers the SKILL.md allowed-tools as written');
  });

  it('carries them in the JSON', () => {
    const json = JSON.parse(JSON.stringify(review)) as typeof review;
    const claude = json.nodes[0]!.powers.agents.find((a) => a.target === 'claude-code')!;
    expect(claude.powers).toContainEqual({
      kind: 'hooks',
      value: 'SessionStart: echo started >> /tmp/guard.log',
      status: 'acts',
    });
    expect(json.nodes[0]!.powers.carried).toContainEqual({ kind: 'allowed-tools', value: 'WebFetch' });
  });

  it('the headline says it carries hooks and tool grants, and where the tools hold', () => {
    expect(permissionSummary(node.permissions, review.agents!, node.powers)).toMatch(
      /^It carries hooks or tool grants \(hook, allowed-tools, load-time command\): in Claude Code the agent runs/,
    );
    const holds = permissionHolds(node.permissions, review.agents!, node.powers);
    const bash = holds.find((h) => h.permission === 'tool:Bash(*)')!;
    expect(bash.agents.map((a) => a.hold)).toEqual(['native', 'advisory']);
  });

  it('a skill with no powers says so', () => {
    const plain = reviewOf({ 'SKILL.md': '---\nname: guard\ndescription: d\n---\nbody\n' }, ['claude-code']);
    expect(renderReview(plain.review)).toContain('powers: none — no hooks, tool grants');
    expect(renderReview(plain.review)).toContain('declares no permissions');
  });
});

describe('an update that adds powers', () => {
  const before = nodePowers(skillOf({ 'SKILL.md': '---\nname: guard\ndescription: d\n---\nbody\n' }), []).carried;
  const after = nodePowers(skillOf({ 'SKILL.md': POWERFUL }), []).carried;

  it('marks each new hook, tool grant and load-time command as an escalation', () => {
    const d = powersDelta(before, after);
    expect(d.filter((c) => c.escalation).map((c) => c.line)).toEqual(
      expect.arrayContaining([
        'hooks: + PreToolUse [Bash]: ./scripts/check.sh "$TOOL_INPUT"  ⚠ escalation — a new hook: the agent runs this command on its own',
        'allowed-tools: + Bash(*)  ⚠ escalation — a new tool grant: the agent may use it without asking',
        'dynamic-context: + git branch --show-current  ⚠ escalation — a new command runs when the skill loads',
      ]),
    );
    expect(d.find((c) => c.field === 'model')?.escalation).toBe(false);
    expect(powersDelta(after, after)).toEqual([]);
  });

  it('a removed disallowed-tools entry widens; a removed hook does not escalate', () => {
    const d = powersDelta(after, before);
    expect(d.find((c) => c.field === 'disallowed-tools')?.escalation).toBe(true);
    expect(d.find((c) => c.field === 'hooks')?.escalation).toBe(false);
  });
});

describe('the powers delta of a manifested skill', () => {
  it('leaves its tool lists to the manifest delta (permissions.tools), keeping load-time commands', () => {
    const toml = (tools: string) => manifestToml({ name: 'guard', extra: `[permissions]\ntools = [${tools}]` });
    const a = skillOf({ 'SKILL.md': '# Guard\n\nbody\n', 'skill.toml': toml('') });
    const b = skillOf({ 'SKILL.md': '# Guard\n\nNow: !`date`\n', 'skill.toml': toml('"read"') });
    const d = powersDelta(nodePowers(a, []).carried, nodePowers(b, []).carried, { manifested: true });
    expect(d.map((c) => c.field)).toEqual(['dynamic-context']);
    // Without the flag the lowered Read would be reported a second time.
    expect(powersDelta(nodePowers(a, []).carried, nodePowers(b, []).carried).map((c) => c.field)).toEqual([
      'allowed-tools',
      'dynamic-context',
    ]);
  });
});
