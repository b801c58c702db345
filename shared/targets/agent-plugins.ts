import { AGENT_SKILLS_DESCRIPTION } from './limits';
import { emitSkillDir } from './common';
import type { ProjectFiles, TargetDef } from './types';

export const AGENT_PLUGIN_DIR = 'agent-plugin';
export const PLUGIN_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';

/** `agent-plugin/plugin.json`: the package manifest, named after the project folder. */
export function pluginManifest(project: Pick<ProjectFiles, 'rootName'>): string {
  const name =
    project.rootName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'agent-plugin';
  const doc = {
    $schema: PLUGIN_SCHEMA,
    name,
    version: '1.0.0',
    description:
      'Agent Plugin compiled by kitbash — install-gate, token budget, and drift checks live in the KSF source.',
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Agent Plugins package (opt-in): `agent-plugin/skills/<n>/SKILL.md` plus one `plugin.json`. */
export const agentPlugins: TargetDef = {
  id: 'agent-plugins',
  agent: 'Agent Plugins clients (Codex, Cursor, Copilot, Kiro, VS Code)',
  guardAbsence:
    'A plugin package carries no hook Skillsmith could rely on across its clients; each client runs the scripts with its own rights',
  markers: ['plugin.json', AGENT_PLUGIN_DIR],
  outputs: [
    'agent-plugin/skills/<n>/SKILL.md',
    'agent-plugin/skills/<n>/scripts/** (requires scripts)',
    'agent-plugin/plugin.json',
  ],
  shape: 'skill-dir',
  loading: 'lazy',
  capabilities: ['scripts'],
  vendorDoc: {
    title: 'Agent Plugins 1.0 (agent-plugins.org specification)',
    url: 'https://agent-plugins.org',
    checked: '2026-12-01',
  },
  skillDir: `${AGENT_PLUGIN_DIR}/skills`,
  alwaysLoaded: [],
  frontmatterKeys: 'any',
  userInvocation: false,
  // Several agents read these folders; a key counts when one of them is documented to act on it.
  actsOn: {
    keys: ['allowed-tools', 'context', 'user-invocable'],
    source: 'GitHub Copilot (allowed-tools, context, user-invocable) and Cursor (user-invocable) read these skills',
  },
  descriptionLimit: AGENT_SKILLS_DESCRIPTION,
  importFrom: [{ dir: `${AGENT_PLUGIN_DIR}/skills`, layout: 'skill-dir' }],
  watchRoots: ['plugin.json', AGENT_PLUGIN_DIR],
  mcp: { path: `${AGENT_PLUGIN_DIR}/mcp.json`, shape: 'agent-plugin-mcp-json', merged: false },
  instructions: [],
  managedDirs: [{ dir: `${AGENT_PLUGIN_DIR}/skills`, suffix: '/SKILL.md', wholeDir: true }],
  projectFiles: (project) => [{ path: `${AGENT_PLUGIN_DIR}/plugin.json`, content: pluginManifest(project) }],
  servesAgentsMdReaders: false,
  detect: (p) => p.exists('plugin.json') || p.exists(AGENT_PLUGIN_DIR),
  constraints: () => [],
  emit(p) {
    return emitSkillDir(this, `${AGENT_PLUGIN_DIR}/skills`, p);
  },
};
