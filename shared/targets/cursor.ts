import { emitRuleFile, userOnly, yamlString } from './common';
import type { TargetDef } from './types';

/** Cursor: an agent-requested rule (`alwaysApply: false`, description only) per skill. */
export const cursor: TargetDef = {
  id: 'cursor',
  agent: 'Cursor',
  markers: ['.cursor'],
  outputs: ['.cursor/rules/<n>.mdc'],
  shape: 'rule-file',
  loading: 'lazy',
  capabilities: [],
  vendorDoc: { title: 'Cursor — Rules (cursor.com/docs/context/rules)', url: 'https://cursor.com/docs/context/rules', checked: '2026-12-01' },
  alwaysLoaded: [],
  frontmatterKeys: ['description', 'globs', 'alwaysApply'],
  userInvocation: true,
  importFrom: [
    { dir: '.cursor/rules', layout: 'rule-file', suffix: '.mdc' },
    { dir: '.cursor/skills', layout: 'skill-dir' },
  ],
  watchRoots: ['.cursor'],
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.cursor'),
  constraints: () => [],
  emit(p) {
    // A user-only skill becomes a manual rule (no description: applied only when @-mentioned).
    const fm = userOnly(p) ? ['alwaysApply: false'] : [`description: ${yamlString(p.description)}`, 'alwaysApply: false'];
    return emitRuleFile(this, `.cursor/rules/${p.name}.mdc`, fm, p);
  },
};
