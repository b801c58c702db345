/**
 * Writing a decision trace run directory:
 *   <root>/run-<unix_ms>-<pid>/events/NNNNNN.<kind>.json, trace.jsonl, summary.json
 * Every file is written atomically; compaction reads events/*.json back in name order.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../fs/atomic';
import { canonicalSpecJson, FINGERPRINT_PREFIX } from '../../../shared/skillspec/canonical';
import type { DecisionWithEvents } from '../../../shared/skillspec/decide';
import { SpecError } from '../../../shared/skillspec/errors';
import { sortedEntries, type SkillSpec } from '../../../shared/skillspec/model';
import {
  envelopeFor,
  eventFileName,
  selectEvents,
  summaryFor,
  type TraceEnvelope,
} from '../../../shared/skillspec/trace';
import { ioErrorText } from './load';

export interface TraceWriteResult {
  run_id: string;
  run_dir: string;
  event_count: number;
  trace_jsonl: string;
  summary_json: string;
}

export function inputSha256(input: string): string {
  return `sha256:${createHash('sha256').update(input, 'utf8').digest('hex')}`;
}

/** SHA-256 over the canonical spec JSON and, per import in id order, its id, path, section and bytes. */
export function specFingerprint(spec: SkillSpec, specPath: string, cwd: string = process.cwd()): string {
  const h = createHash('sha256');
  h.update(FINGERPRINT_PREFIX);
  h.update(canonicalSpecJson(spec), 'utf8');
  const dir = resolve(cwd, dirname(specPath));
  for (const [id, imp] of sortedEntries(spec.imports)) {
    h.update(`\nimport\n${id}\n${imp.path}\n${imp.section ?? ''}\ncontent\n`, 'utf8');
    const file = resolve(dir, imp.path);
    try {
      h.update(readFileSync(file));
    } catch (e) {
      throw new SpecError('read', `failed to read ${join(dirname(specPath), imp.path)}: ${ioErrorText(e)}`);
    }
  }
  return `sha256:${h.digest('hex')}`;
}

/** An atomic write whose failure reads `failed to write <path>: <os error>`. */
function writeOrExplain(abs: string, data: string, shown: string): void {
  try {
    writeFileAtomic(abs, data);
  } catch (e) {
    throw new SpecError('invalid_input', `failed to write ${shown}: ${ioErrorText(e)}`);
  }
}

export interface TraceClock {
  now(): number;
  pid: number;
}

const systemClock: TraceClock = { now: () => Date.now(), pid: process.pid };

export function writeDecisionTrace(
  root: string,
  specPath: string,
  spec: SkillSpec,
  decided: DecisionWithEvents,
  opts: { cwd?: string; clock?: TraceClock } = {},
): TraceWriteResult {
  const cwd = opts.cwd ?? process.cwd();
  const clock = opts.clock ?? systemClock;
  const runId = `run-${clock.now()}-${clock.pid}`;
  const runDir = join(root, runId);
  const eventsDir = resolve(cwd, runDir, 'events');
  const fingerprint = specFingerprint(spec, specPath, cwd);
  const inputHash = inputSha256(decided.decision.input);
  selectEvents(spec, decided.events).forEach((event, i) => {
    const env = envelopeFor(spec, runId, i + 1, clock.now(), event, fingerprint, inputHash);
    writeOrExplain(
      join(eventsDir, eventFileName(env)),
      JSON.stringify(env, null, 2),
      join(runDir, 'events', eventFileName(env)),
    );
  });
  return compactTrace(runDir, cwd);
}

/** Rebuild trace.jsonl and summary.json from events/*.json. */
export function compactTrace(runDir: string, cwd: string = process.cwd()): TraceWriteResult {
  const abs = resolve(cwd, runDir);
  const eventsDir = join(abs, 'events');
  let names: string[];
  try {
    names = readdirSync(eventsDir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (e) {
    throw new SpecError('read', `failed to read ${join(runDir, 'events')}: ${ioErrorText(e)}`);
  }
  const envelopes = names.map((n) => JSON.parse(readFileSync(join(eventsDir, n), 'utf8')) as TraceEnvelope);
  writeOrExplain(
    join(abs, 'trace.jsonl'),
    envelopes.map((e) => `${JSON.stringify(e)}\n`).join(''),
    join(runDir, 'trace.jsonl'),
  );
  const summary = summaryFor(envelopes);
  writeOrExplain(join(abs, 'summary.json'), JSON.stringify(summary, null, 2), join(runDir, 'summary.json'));
  return {
    run_id: summary.run_id,
    run_dir: runDir,
    event_count: summary.event_count,
    trace_jsonl: join(runDir, 'trace.jsonl'),
    summary_json: join(runDir, 'summary.json'),
  };
}
