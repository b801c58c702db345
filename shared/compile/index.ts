/** Public surface of compile planning (the desktop plans live with these; main/services/compile applies plans). */
export {
  planCompile,
  summarize,
  generatedBy,
  isSafeRelative,
  MANAGED_DIRS,
  MANAGED_SHARED_FILES,
  type CompileInput,
  type CompilePlan,
  type FailedSkill,
  type PlannedFile,
  type PlannedPrune,
  type TargetStanding,
} from './plan';
export { SharedDoc } from './sections';
export {
  describeWithheld,
  withheldReason,
  withheldSkills,
  type ReviewFacts,
  type WithheldReason,
  type WithheldSkill,
} from './deliver';
export { memoryView } from './view';
