import { emitMerged } from './common';
import { CONVENTIONS_MD } from './limits';
import type { ProjectFiles, TargetDef } from './types';

/** Whether aider will actually read CONVENTIONS.md, as an info note (undefined: it is wired). */
export function aiderWiringNote(project: ProjectFiles): string | undefined {
  const conf = ['.aider.conf.yml', '.aider.conf.yaml'].find((f) => project.exists(f));
  if (conf) {
    const text = project.read(conf) ?? '';
    if (/^\s*read:/m.test(text) && text.includes('CONVENTIONS.md')) return undefined;
    return `aider: CONVENTIONS.md is written, but ${conf} does not read it — add "read: CONVENTIONS.md" there, or the file is never in context and the standing cost above is not actually charged.`;
  }
  return 'aider: CONVENTIONS.md is written, but aider does not read it automatically — run "aider --read CONVENTIONS.md", or add "read: CONVENTIONS.md" to .aider.conf.yml. Until then the file costs nothing and does nothing.';
}

/** Aider: a marked section in CONVENTIONS.md — eager, and only read when configured. */
export const aider: TargetDef = {
  id: 'aider',
  agent: 'Aider',
  guardAbsence: 'Aider documents no hook before its shell commands',
  markers: ['CONVENTIONS.md', '.aider.conf.yml'],
  outputs: ['CONVENTIONS.md (section <n>)'],
  shape: 'merged-section',
  loading: 'eager',
  capabilities: [],
  vendorDoc: {
    title: 'Aider — Specifying coding conventions (aider/website/docs/usage/conventions.md)',
    url: 'https://aider.chat/docs/usage/conventions.html',
    checked: '2026-12-01',
  },
  alwaysLoaded: [CONVENTIONS_MD],
  frontmatterKeys: [],
  userInvocation: false,
  importFrom: [],
  watchRoots: ['CONVENTIONS.md', '.aider.conf.yml', '.aider.conf.yaml'],
  mcp: {
    gap: {
      reason: 'no-mcp-surface',
      detail: 'aider has no MCP mechanism; CONVENTIONS.md is prose with no configuration',
    },
  },
  instructions: [{ path: 'CONVENTIONS.md', loading: 'eager' }],
  managedDirs: [],
  // The wiring note quotes .aider.conf.yml.
  emitFacts: (project) =>
    project.exists('.aider.conf.yml') || project.exists('.aider.conf.yaml')
      ? (project.read('.aider.conf.yml') ?? project.read('.aider.conf.yaml') ?? '')
      : 'none',
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('CONVENTIONS.md') || p.exists('.aider.conf.yml'),
  constraints: () => [],
  emit(p, project) {
    const note = aiderWiringNote(project);
    return emitMerged(this, 'CONVENTIONS.md', p, note ? [note] : []);
  },
};
