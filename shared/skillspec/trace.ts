/**
 * The decision trace event log, as data: which events a spec records, the envelope
 * around each, the summary. Writing the files (and hashing) is main/services/skillspec.
 */
import { ALL_TRACE_EVENT_KINDS, type DecisionEvent } from './decide';
import { compareKeys, type SkillSpec, type TraceEventKind } from './model';

export const TRACE_SCHEMA = 'skillspec.trace/v0';

export interface TraceEnvelope {
  schema: string;
  run_id: string;
  seq: number;
  timestamp_unix_ms: number;
  skill_id: string;
  spec_schema: string;
  spec_fingerprint?: string;
  input_sha256?: string;
  event: TraceEventKind;
  event_name: TraceEventKind;
  data: Record<string, unknown>;
}

export interface TraceSummary {
  schema: string;
  run_id: string;
  skill_id: string;
  spec_fingerprint?: string;
  input_sha256?: string;
  event_count: number;
  events: Partial<Record<TraceEventKind, number>>;
}

/** `trace.record` filters the events; empty or absent records every kind. */
export function selectEvents(spec: SkillSpec, events: readonly DecisionEvent[]): DecisionEvent[] {
  const record = spec.trace?.record ?? [];
  if (record.length === 0) return [...events];
  const keep = new Set<string>(record);
  return events.filter((e) => keep.has(e.event));
}

/** Object keys sorted at every level (the reference's payloads pass through a generic JSON map). */
export function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort(compareKeys)) out[k] = sortKeysDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

export function envelopeFor(
  spec: SkillSpec,
  runId: string,
  seq: number,
  timestampMs: number,
  event: DecisionEvent,
  fingerprint: string | undefined,
  inputSha256: string | undefined,
): TraceEnvelope {
  return {
    schema: TRACE_SCHEMA,
    run_id: runId,
    seq,
    timestamp_unix_ms: timestampMs,
    skill_id: spec.id,
    spec_schema: spec.schema,
    ...(fingerprint !== undefined ? { spec_fingerprint: fingerprint } : {}),
    ...(inputSha256 !== undefined ? { input_sha256: inputSha256 } : {}),
    event: event.event,
    event_name: event.event,
    data: sortKeysDeep(event) as Record<string, unknown>,
  };
}

/** `000001.input_received.json`. */
export function eventFileName(e: Pick<TraceEnvelope, 'seq' | 'event_name'>): string {
  return `${String(e.seq).padStart(6, '0')}.${e.event_name}.json`;
}

export function summaryFor(envelopes: readonly TraceEnvelope[]): TraceSummary {
  const counts = new Map<string, number>();
  for (const e of envelopes) counts.set(e.event, (counts.get(e.event) ?? 0) + 1);
  const events: Partial<Record<TraceEventKind, number>> = {};
  for (const k of ALL_TRACE_EVENT_KINDS) if (counts.has(k)) events[k] = counts.get(k)!;
  const fp = envelopes.find((e) => e.spec_fingerprint !== undefined)?.spec_fingerprint;
  const ih = envelopes.find((e) => e.input_sha256 !== undefined)?.input_sha256;
  return {
    schema: TRACE_SCHEMA,
    run_id: envelopes[0]?.run_id ?? 'empty',
    skill_id: envelopes[0]?.skill_id ?? 'unknown',
    ...(fp !== undefined ? { spec_fingerprint: fp } : {}),
    ...(ih !== undefined ? { input_sha256: ih } : {}),
    event_count: envelopes.length,
    events,
  };
}

export const TRACE_REQUIRED_MESSAGE =
  'trace.required is true; pass --trace-dir or use a spec that does not require tracing';
