/**
 * The SkillSpec v0 engine, pure: usable from main, the CLI and the renderer alike.
 * File access (imports, sidecars, traces) is behind SpecFiles or in main/services/skillspec.
 */
import { SpecError, type SourcePosition, type SpecErrorKind } from './errors';
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

export type SpecCheck =
  | { ok: true; spec: SkillSpec }
  | { ok: false; error: { kind: SpecErrorKind; message: string; position?: SourcePosition } };

/**
 * Parse and validate spec text without touching files — what an editor shows as you
 * type. Import files and sidecars are not checked here.
 */
export function checkSpecText(text: string, name = 'skill.spec.yml'): SpecCheck {
  try {
    const spec = readSpecYaml(text, name);
    validateSpec(spec);
    return { ok: true, spec };
  } catch (e) {
    if (e instanceof SpecError)
      return {
        ok: false,
        error: { kind: e.kind, message: e.message, ...(e.position ? { position: e.position } : {}) },
      };
    throw e;
  }
}
