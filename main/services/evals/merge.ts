import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeShards } from '../../../shared/evals/merge';
import { fail, ok, type Result } from '../../../shared/result';
import { writeFileAtomic } from '../fs/atomic';
import { EVALS_DIR, newRunId, type EvalRun } from './run';

/**
 * `eval merge`: the shards' `--json` outputs joined (shared/evals/merge.ts) and stored under
 * `.kitbash/evals/<run>/results.json` like any run, so the app's history shows it. The
 * shards' transcripts stay on the machines that ran them.
 */
export function mergeEvalRuns(
  projectRoot: string,
  files: readonly { file: string; abs: string }[],
  deps: { now?: () => Date } = {},
): Result<EvalRun> {
  const texts = [];
  for (const f of files) {
    try {
      texts.push({ file: f.file, text: readFileSync(f.abs, 'utf8') });
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(e);
      return fail('invalid-input', why, { file: f.file });
    }
  }
  const merged = mergeShards(texts);
  if (!merged.ok) return merged;
  const m = merged.value;
  const started = (deps.now ?? (() => new Date()))();
  const runId = newRunId(started);
  const run: EvalRun = {
    runId,
    dir: `${EVALS_DIR.split('\\').join('/')}/${runId}`,
    startedAt: started.toISOString(),
    results: m.results,
    problems: m.problems,
    // Each shard warned on its own machine; the shards' JSON does not carry them.
    warnings: [],
    runnerUnavailable: m.runnerUnavailable,
    cancelled: false,
    runners: m.runners,
    baseline: m.baseline,
    config: m.config,
    plan: m.plan,
    mergedFrom: m.mergedFrom,
  };
  writeFileAtomic(join(projectRoot, EVALS_DIR, runId, 'results.json'), JSON.stringify(run, null, 2) + '\n');
  return ok(run);
}
