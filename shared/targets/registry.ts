import { agentPlugins } from './agent-plugins';
import { agents } from './agents';
import { agentsmd } from './agentsmd';
import { aider } from './aider';
import { claudeCode } from './claude-code';
import { cline } from './cline';
import { copilot } from './copilot';
import { cursor } from './cursor';
import { gemini } from './gemini';
import type { ProjectFiles, TargetDef, TargetId } from './types';
import { TARGET_IDS } from './types';
import { windsurf } from './windsurf';
import { fail, ok, type Result } from '../result';
import { zed } from './zed';

/** Every target, in emit order (the order files are produced and reported). */
export const TARGETS: readonly TargetDef[] = [
  claudeCode,
  cursor,
  agents,
  zed,
  copilot,
  cline,
  windsurf,
  gemini,
  aider,
  agentsmd,
  agentPlugins,
];

export { TARGET_IDS };

/** The target with this id, or undefined. */
export function targetById(id: string): TargetDef | undefined {
  return TARGETS.find((t) => t.id === id);
}

export function isTargetId(id: string): id is TargetId {
  return (TARGET_IDS as readonly string[]).includes(id);
}

/** Targets selected by the project's markers, in emit order. */
export function detectTargets(project: ProjectFiles): TargetDef[] {
  return TARGETS.filter((t) => t.detect(project));
}

export type TargetSelection = Result<{ targets: TargetDef[]; explicit: boolean }>;

/**
 * `[project].targets` when given (in emit order, detection bypassed; unknown ids are an
 * error listing the known ones), else detection.
 */
export function resolveTargets(
  project: ProjectFiles,
  configured: readonly string[] | undefined,
  configFile = 'kitbash.toml',
): TargetSelection {
  if (configured === undefined) return ok({ targets: detectTargets(project), explicit: false });
  const unknown = configured.filter((t) => !isTargetId(t));
  if (unknown.length)
    return fail(
      'invalid-input',
      `unknown target(s) in ${configFile}: ${unknown.join(', ')} (known: ${TARGET_IDS.join(', ')})`,
    );
  return ok({ targets: TARGETS.filter((t) => configured.includes(t.id)), explicit: true });
}

/**
 * Project-relative paths whose changes can change some target's output or detection (for watchers), first mention
 * first.
 */
export function watchRoots(targets: readonly TargetDef[] = TARGETS): string[] {
  return [...new Set(targets.flatMap((t) => t.watchRoots))];
}

/** Targets that share the `.agents/skills/` folder (the `agents` target's own). */
export const AGENTS_DIR_TARGETS: readonly TargetId[] = TARGETS.filter((t) => t.skillDir === agents.skillDir).map(
  (t) => t.id,
);

/** Targets whose own skills folder is redundant once `.agents/skills/` is written, and that folder. */
export const VENDOR_NEUTRAL_ALIASES: readonly { id: TargetId; dir: string }[] = TARGETS.flatMap((t) =>
  t.readsAgentsSkills && t.skillDir ? [{ id: t.id, dir: t.skillDir }] : [],
);
