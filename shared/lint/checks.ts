import type { Skill } from '../ksf/model';
import { bodyChecks, resolveBody } from './rules/body';
import { linksCheck } from './links';
import { contentChecks } from './rules/content';
import { artifactsCheck, gateVerdictCheck, mcpCheck, schemaChecks } from './rules/declarations';
import { manifestCheck, nameConventionCheck } from './rules/identity';
import { Spans } from './spans';
import { FILE_CHECK_IDS, type Check } from './types';

export interface LintOptions {
  /** The strict JSON-Schema tier; supplied by main/ (ajv generates code, so it stays out of shared/). */
  readonly jsonSchema?: (manifest: unknown) => readonly string[];
}

/**
 * Every static check for one loaded skill, in report order (SPEC.md §9.1). The same
 * function serves lint, test, install review and the editor, so they never disagree.
 */
export function lintSkill(skill: Skill, options: LintOptions = {}): Check[] {
  const spans = new Spans();
  const resolved = resolveBody(skill);
  return [
    manifestCheck(skill),
    nameConventionCheck(skill),
    ...bodyChecks(skill, resolved, spans),
    gateVerdictCheck(skill),
    mcpCheck(skill),
    artifactsCheck(skill),
    ...schemaChecks(skill, options.jsonSchema),
    ...contentChecks(skill, resolved, spans),
    linksCheck(skill, spans),
  ].filter((c): c is Check => c !== undefined);
}

/**
 * The checks of `lintSkill` that read only files (`FILE_CHECK_IDS`), for a skill read with
 * `loadSkillFiles` because its manifest does not load: the manifest's own verdict is the
 * load error, and nothing here judges the stand-in manifest.
 */
export function lintFiles(skill: Skill): Check[] {
  return lintSkill(skill).filter((c) => FILE_CHECK_IDS.includes(c.id));
}
