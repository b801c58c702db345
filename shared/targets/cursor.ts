import { emitRuleFile, yamlString } from './common';
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
  userInvocation: false,
  importFrom: [
    { dir: '.cursor/rules', layout: 'rule-file', suffix: '.mdc' },
    { dir: '.cursor/skills', layout: 'skill-dir' },
  ],
  watchRoots: ['.cursor'],
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('.cursor'),
  constraints: () => [],
  emit(p) {
    return emitRuleFile(this, `.cursor/rules/${p.name}.mdc`, [`description: ${yamlString(p.description)}`, 'alwaysApply: false'], p);
  },
};
