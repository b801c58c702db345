import { emitRuleFile, userOnly, yamlString } from './common';
import type { TargetDef } from './types';

/** Devin Desktop (formerly Windsurf): a `model_decision` rule; `.devin/` is preferred when present. */
export const windsurf: TargetDef = {
  id: 'windsurf',
  agent: 'Devin Desktop (Windsurf)',
  guardAbsence:
    "Windsurf's pre_run_command hook can block a command but not route it elsewhere, and no run here has proven one",
  markers: ['.devin', '.windsurf'],
  outputs: ['.devin/rules/<n>.md (when .devin/ exists)', '.windsurf/rules/<n>.md (otherwise)'],
  shape: 'rule-file',
  loading: 'lazy',
  capabilities: [],
  vendorDoc: {
    title: 'Devin Desktop — Rules (rulesync devin-rule.ts, devin-paths.ts)',
    url: 'https://docs.devin.ai/desktop/rules',
    checked: '2026-12-01',
  },
  alwaysLoaded: [],
  frontmatterKeys: ['trigger', 'description', 'globs'],
  userInvocation: true,
  importFrom: [
    { dir: '.windsurf/rules', layout: 'rule-file', suffix: '.md' },
    { dir: '.devin/rules', layout: 'rule-file', suffix: '.md' },
  ],
  watchRoots: ['.devin', '.windsurf'],
  mcp: {
    gap: {
      reason: 'no-project-scope',
      detail: 'Windsurf/Devin documents only a user-global MCP config, and its documented page covers the legacy agent',
    },
  },
  instructions: [
    { path: '.windsurfrules', loading: 'eager' },
    { path: '.windsurf/rules', suffix: '.md', loading: 'lazy' },
    { path: '.devin/rules', suffix: '.md', loading: 'lazy' },
  ],
  managedDirs: [
    { dir: '.windsurf/rules', suffix: '.md' },
    { dir: '.devin/rules', suffix: '.md' },
  ],
  // Output goes to .devin/rules/ once .devin/ exists.
  emitFacts: (project) => (project.exists('.devin') ? 'devin' : ''),
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.devin') || p.exists('.windsurf'),
  constraints: () => [],
  emit(p, project) {
    const dir = project.exists('.devin') ? '.devin/rules' : '.windsurf/rules';
    // A user-only skill becomes a manual rule (applied only when the user @-mentions it).
    return emitRuleFile(
      this,
      `${dir}/${p.name}.md`,
      [userOnly(p) ? 'trigger: manual' : 'trigger: model_decision', `description: ${yamlString(p.description)}`],
      p,
    );
  },
};
