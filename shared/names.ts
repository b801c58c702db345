/**
 * The two skill-name rules, each defined once (SPEC D127). They differ on purpose: the KSF
 * rule is the identity kitbash enforces, and Skillsmith must install exactly what kitbash
 * installs; the Agent Skills rule is what hosts reading a skills folder expect, so a KSF
 * name outside it is valid but warned about where a host would drop it.
 */

/**
 * The KSF name (kitbash's `NAME_RE`): 2–41 characters, a lower-case letter first. Every
 * installed skill's folder, lock key and output file name has this shape, so every gate that
 * takes a skill name (IPC, CLI arguments, policy exceptions) accepts exactly this.
 */
export const KSF_NAME_RE = /^[a-z][a-z0-9-]{1,40}$/;

export function isKsfName(name: string): boolean {
  return KSF_NAME_RE.test(name);
}

/**
 * The Agent Skills name: lower-case letters and digits in groups joined by single hyphens.
 * The capturing group keeps the source text kitbash prints in its Zed message.
 */
export const AGENT_SKILLS_NAME_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** The Agent Skills spec's length cap (longer than any KSF name, so it only bites on foreign names). */
export const AGENT_SKILLS_NAME_MAX = 64;

export function isAgentSkillsName(name: string): boolean {
  return name.length <= AGENT_SKILLS_NAME_MAX && AGENT_SKILLS_NAME_RE.test(name);
}
