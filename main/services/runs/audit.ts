import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendFileInside } from '../fs/inside';
import type { EnforcementLabel, RestrictionId } from '../sandbox/types';
import type { RunMode, RunOutcome } from './types';

export const RUNS_LOG = join('.kitbash', 'runs.jsonl');

/** One line of `.kitbash/runs.jsonl`. */
export interface AuditRecord {
  readonly time: string;
  readonly runId: string;
  readonly skill: string;
  readonly version: string | null;
  readonly integrity: string | null;
  readonly mode: RunMode;
  readonly script: string | null;
  readonly argv: readonly string[];
  readonly backend: string;
  readonly enforcement: Partial<Record<RestrictionId, EnforcementLabel>>;
  /** `permissions.tools` as declared (advisory). */
  readonly tools?: readonly string[];
  readonly override: boolean;
  readonly outcome: RunOutcome;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly truncated?: { readonly stdout: number; readonly stderr: number };
  readonly strays?: number | true;
  readonly verdict?: 'pass' | 'fail';
  readonly refused?: string;
  /** `write = true`: what was applied ("added REVIEW.md"), each refused path with its reason, or why nothing was. */
  readonly writes?: {
    readonly applied: readonly string[];
    readonly refused: readonly string[];
    readonly notApplied?: string;
  };
}

/**
 * Append one record. A single write of one line with O_APPEND: concurrent runs never
 * interleave inside a line, and earlier lines are never rewritten.
 */
export function appendAudit(projectRoot: string, record: AuditRecord): void {
  appendFileInside(projectRoot, RUNS_LOG, JSON.stringify(record) + '\n');
}

/** Every record (malformed lines skipped), oldest first — for the app's runs panel and tests. */
export function readAudit(projectRoot: string): AuditRecord[] {
  let text: string;
  try {
    text = readFileSync(join(projectRoot, RUNS_LOG), 'utf8');
  } catch {
    return [];
  }
  const out: AuditRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as AuditRecord);
    } catch {
      // a torn or hand-edited line is not a record
    }
  }
  return out;
}
