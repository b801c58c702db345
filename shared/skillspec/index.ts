/**
 * The SkillSpec v0 engine, pure: usable from main, the CLI and the renderer alike.
 * File access (imports, sidecars, traces) is behind SpecFiles or in main/services/skillspec.
 */
import { SpecError, type SourcePosition, type SpecErrorKind } from './errors';
import type { Result, SkillsmithError } from '../result';
import type { SkillSpec } from './model';
import { validateSpec } from './validate';
import { readSpecYaml } from './yaml';

export {
  compileSpec,
  SPEC_RENDERINGS,
  resolveSpecRendering,
  selectionDescription,
  type SpecRendering,
} from './compile';
export {
  containsPhrase,
  decide,
  decideWithEvents,
  defaultRouteOrder,
  matchesPredicate,
  type Decision,
  type DecisionEvent,
  type RouteSelection,
} from './decide';
export { checkDependencies, type DependencyCheckReport, type DepsHost } from './deps';
export { SpecError, debugStr, type SourcePosition, type SpecErrorKind } from './errors';
export {
  checkImports,
  hasSection,
  validateImports,
  validateSidecars,
  type ImportCheckReport,
  type SpecFiles,
} from './files';
export { skillSpecJsonSchema } from './json-schema';
export type { SkillSpec } from './model';
export { compareExpectation, formatTestRun, runScenarioTests, type TestRun } from './scenario';
export {
  matchedPhraseSpans,
  predicateSpans,
  segmentInput,
  type PhraseSpan,
  type PhraseSource,
  type Segment,
} from './spans';
export { validateSpec } from './validate';
export { MAX_SPEC_BYTES, readSpecYaml } from './yaml';

/** A spec that does not check: the reference's error kind, and where in the text when known. */
export interface SpecFailure extends SkillsmithError {
  readonly kind: SpecErrorKind;
  readonly position?: SourcePosition;
}

export type SpecCheck = Result<SkillSpec, SpecFailure>;

/**
 * Parse and validate spec text without touching files — what an editor shows as you
 * type. Import files and sidecars are not checked here.
 */
export function checkSpecText(text: string, name = 'skill.spec.yml'): SpecCheck {
  try {
    const spec = readSpecYaml(text, name);
    validateSpec(spec);
    return { ok: true, value: spec };
  } catch (e) {
    if (e instanceof SpecError)
      return {
        ok: false,
        error: { code: e.code, kind: e.kind, message: e.message, ...(e.position ? { position: e.position } : {}) },
      };
    throw e;
  }
}
