import { emitRuleFile, yamlString } from './common';
import type { TargetDef } from './types';

/** Devin Desktop (formerly Windsurf): a `model_decision` rule; `.devin/` is preferred when present. */
export const windsurf: TargetDef = {
  id: 'windsurf',
  agent: 'Devin Desktop (Windsurf)',
  markers: ['.devin', '.windsurf'],
  outputs: ['.devin/rules/<n>.md (when .devin/ exists)', '.windsurf/rules/<n>.md (otherwise)'],
  shape: 'rule-file',
  loading: 'lazy',
  capabilities: [],
  vendorDoc: { title: 'Devin Desktop — Rules (rulesync devin-rule.ts, devin-paths.ts)', url: 'https://docs.devin.ai/desktop/rules', checked: '2026-12-01' },
  alwaysLoaded: [],
  frontmatterKeys: ['trigger', 'description', 'globs'],
  userInvocation: false,
  importFrom: [
    { dir: '.windsurf/rules', layout: 'rule-file', suffix: '.md' },
    { dir: '.devin/rules', layout: 'rule-file', suffix: '.md' },
  ],
  watchRoots: ['.devin', '.windsurf'],
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.devin') || p.exists('.windsurf'),
  constraints: () => [],
  emit(p, project) {
    const dir = project.exists('.devin') ? '.devin/rules' : '.windsurf/rules';
    return emitRuleFile(this, `${dir}/${p.name}.md`, ['trigger: model_decision', `description: ${yamlString(p.description)}`], p);
  },
};
