import type { Manifest, Skill } from '../ksf/model';
import { resolveBody } from '../lint/rules/body';
import type { PreparedSkill } from './types';
import { ok, type Result } from '../result';

/**
 * The prose permissions block appended to every target's body when a skill declares
 * anything beyond the defaults. Byte-identical to the reference's.
 */
export function permissionsBlock(m: Manifest): string {
  const p = m.permissions;
  if (!p.tools.length && !p.network && !p.write) return '';
  const parts: string[] = [];
  if (p.tools.length) parts.push(`Permitted tools: ${p.tools.join(', ')}.`);
  parts.push(`Network access: ${p.network ? 'allowed' : 'denied'}.`);
  parts.push(`File writes: ${p.write ? 'allowed' : 'denied'}.`);
  return `\n\n---\n\n**Declared permissions (kitbash).** ${parts.join(' ')} Operate within these unless the user explicitly overrides.\n`;
}

/** A failure is the body's template error. */
export type Prepared = Result<PreparedSkill>;

/**
 * Resolve templates and append the permissions block; a template error is the message. A
 * bare Agent Skill (no skill.toml) has no templates: its body is delivered verbatim.
 */
export function prepareSkill(skill: Skill): Prepared {
  const r = skill.manifested ? resolveBody(skill) : ok({ text: skill.body });
  if (!r.ok) return { ok: false, error: r.error };
  const { name, version, description } = skill.manifest.skill;
  const body = r.value.text;
  return ok({ skill, name, version, description, body, emitBody: body + permissionsBlock(skill.manifest) });
}
