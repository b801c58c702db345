/**
 * Vendor figures several target modules share (each module declares which apply to it).
 * Sources are the vendors' documents as summarised in the shared reference/ecosystem.md.
 */
import type { AlwaysLoadedFile, DescriptionLimit } from './types';

/** The Agent Skills specification: `description` is at most 1,024 characters. */
export const AGENT_SKILLS_DESCRIPTION: DescriptionLimit = {
  max: 1024,
  unit: 'chars',
  drops: false,
  source: 'Agent Skills specification (agentskills.io/specification): description ≤ 1,024 characters',
};

/** Codex reads at most 32 KiB of project docs (`project_doc_max_bytes`) — the strictest common AGENTS.md reader. */
export const AGENTS_MD: AlwaysLoadedFile = {
  path: 'AGENTS.md',
  maxBytes: 32 * 1024,
  source: 'Codex project_doc_max_bytes default (32 KiB); the rest of AGENTS.md is not read',
};

/**
 * Aider documents no limit for a `--read` file: it sends the whole file with every request.
 * Skillsmith bounds CONVENTIONS.md at the same 32 KiB as AGENTS.md (about 8k tokens, a quarter
 * of a 32k-token model's window) rather than let it grow without end — its own choice (spec D221).
 */
export const CONVENTIONS_MD: AlwaysLoadedFile = {
  path: 'CONVENTIONS.md',
  maxBytes: 32 * 1024,
  source: 'no documented aider limit; Skillsmith bounds it at 32 KiB, about 8k tokens sent with every request',
};
