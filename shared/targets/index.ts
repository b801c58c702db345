/** Public surface of the targets layer (H4 `list`/`doctor` and the desktop import from here). */
export * from './types';
export {
  TARGETS,
  targetById,
  isTargetId,
  detectTargets,
  resolveTargets,
  AGENTS_DIR_TARGETS,
  VENDOR_NEUTRAL_ALIASES,
  type TargetSelection,
} from './registry';
export { standingCost, standingTotals, EMPTY_PROJECT, type StandingCost, type TargetTotal } from './cost';
export { prepareSkill, permissionsBlock, type Prepared } from './prepare';
export { GENERATED_MARK, header, lowerTools } from './common';
export { ZED_DESCRIPTION_MAX_BYTES, zedConstraints } from './zed';
export { aiderWiringNote } from './aider';
export { AGENT_PLUGIN_DIR, pluginManifest } from './agent-plugins';
export { compatibilityMatrix, matrixCell, type Cell, type CellStatus, type Matrix, type Reason } from './matrix';
export { listingReport, listingWarnings, type ListingReport } from './listing';
