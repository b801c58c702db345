/** Decision traces: hashes, the run directory layout, record filtering, the summary. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalSpecJson } from '../../shared/skillspec/canonical';
import { decideWithEvents } from '../../shared/skillspec/decide';
import { selectEvents, sortKeysDeep, summaryFor, type TraceEnvelope } from '../../shared/skillspec/trace';
import { loadSpec } from '../../main/services/skillspec/load';
import { compactTrace, inputSha256, specFingerprint, writeDecisionTrace } from '../../main/services/skillspec/trace';
import { corpusDir, requireOrSkip } from '../support/paths';
import { doc, load } from './helpers';

const temps: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'skillspec-trace-'));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const SPEC = doc(`routes:
  - {id: a, label: A}
  - {id: b, label: B}
rules:
  - {id: r1, when: {user_says_any: [go]}, prefer: b, forbid: [f], allow: {z: 1, a: {y: 2, x: 1}}, reason: because}
  - {id: r2, when: {user_says_any: [never]}}
`);

describe('hashes', () => {
  it('hashes the input as sha256:<hex> (reference test vector)', () => {
    expect(inputSha256('create a skill for editing PDFs')).toBe(
      'sha256:87457fe328bc201561cf7b1c274b344b22941a0168a8f5df2fbc1792afde3b2d',
    );
  });

  const minimal = join(corpusDir, 'skillspec', 'valid', 'conformance', 'valid', 'minimal.skill.spec.yml');
  it.skipIf(!requireOrSkip(`the SkillSpec corpus (${minimal})`, existsSync(minimal)))(
    'fingerprints the minimal conformance spec as the reference does',
    () => {
      const { spec } = loadSpec(minimal);
      expect(specFingerprint(spec, minimal)).toBe(
        'sha256:b95b0397416151a324fea38949a0e00226d38cd524ac36b3e307bec5e7c6b1ce',
      );
    },
  );

  it('serialises every field in declaration order, nulls included, maps sorted', () => {
    const json = canonicalSpecJson(
      load(
        doc(
          'commands:\n  zz: {template: z}\n  aa: {template: a}\ncode:\n  c: {language: sh, kind: probe, source: {inline: x}, provenance: {import: i}}\nimports:\n  i: {path: i.md, role: reference, load: always}\n',
        ),
      ),
    );
    const v = JSON.parse(json) as Record<string, unknown>;
    expect(Object.keys(v).slice(0, 6)).toEqual(['schema', 'id', 'title', 'description', 'activation', 'applies_when']);
    expect(Object.keys(v['commands'] as object)).toEqual(['aa', 'zz']);
    expect(json).toContain(
      '"provenance":{"import":"i","fence_index":null,"heading":null,"line_start":null,"line_end":null}',
    );
    expect(json).toContain('"source":{"inline":"x"}');
  });

  it('changes when an imported file changes', () => {
    const dir = temp();
    writeFileSync(join(dir, 'g.md'), '# one\n');
    writeFileSync(join(dir, 'skill.spec.yml'), doc('imports:\n  g: {path: g.md, role: reference, load: always}\n'));
    const path = join(dir, 'skill.spec.yml');
    const before = specFingerprint(loadSpec(path).spec, path);
    writeFileSync(join(dir, 'g.md'), '# two\n');
    expect(specFingerprint(loadSpec(path).spec, path)).not.toBe(before);
  });
});

describe('the run directory', () => {
  it('writes numbered events, trace.jsonl and summary.json', () => {
    const dir = temp();
    const specPath = join(dir, 'skill.spec.yml');
    writeFileSync(specPath, SPEC);
    const { spec } = loadSpec(specPath);
    let now = 1782111280403;
    const res = writeDecisionTrace(join(dir, 'traces'), specPath, spec, decideWithEvents(spec, 'go'), {
      clock: { now: () => now++, pid: 4242 },
    });
    expect(res.run_id).toBe('run-1782111280403-4242');
    const events = readdirSync(join(res.run_dir, 'events'));
    expect(events).toEqual([
      '000001.input_received.json',
      '000002.spec_loaded.json',
      '000003.rule_evaluated.json',
      '000004.rule_matched.json',
      '000005.route_selected.json',
      '000006.forbid_added.json',
      '000007.allow_added.json',
      '000008.rule_evaluated.json',
      '000009.outcome_recorded.json',
    ]);
    const first = readFileSync(join(res.run_dir, 'events', events[0]!), 'utf8');
    expect(first.endsWith('}')).toBe(true); // pretty JSON, no trailing newline
    const env = JSON.parse(first) as TraceEnvelope;
    expect(Object.keys(env)).toEqual([
      'schema',
      'run_id',
      'seq',
      'timestamp_unix_ms',
      'skill_id',
      'spec_schema',
      'spec_fingerprint',
      'input_sha256',
      'event',
      'event_name',
      'data',
    ]);
    expect(env.data).toEqual({ event: 'input_received', input: 'go' });
    const allow = JSON.parse(
      readFileSync(join(res.run_dir, 'events', '000007.allow_added.json'), 'utf8'),
    ) as TraceEnvelope;
    expect(JSON.stringify(allow.data)).toBe('{"allow":{"a":{"x":1,"y":2},"z":1},"event":"allow_added"}');
    const lines = readFileSync(res.trace_jsonl, 'utf8').split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[9]).toBe('');
    expect(JSON.parse(lines[8]!).event).toBe('outcome_recorded');
    const summary = JSON.parse(readFileSync(res.summary_json, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual([
      'schema',
      'run_id',
      'skill_id',
      'spec_fingerprint',
      'input_sha256',
      'event_count',
      'events',
    ]);
    expect(summary['event_count']).toBe(9);
    expect(Object.keys(summary['events'] as object)).toEqual([
      'input_received',
      'spec_loaded',
      'rule_evaluated',
      'rule_matched',
      'route_selected',
      'forbid_added',
      'allow_added',
      'outcome_recorded',
    ]);
    expect((summary['events'] as Record<string, number>)['rule_evaluated']).toBe(2);
  });

  it('records only trace.record kinds, renumbered without gaps', () => {
    const dir = temp();
    const specPath = join(dir, 'skill.spec.yml');
    writeFileSync(specPath, `${SPEC}trace:\n  mode: event_log\n  record: [outcome_recorded, rule_matched]\n`);
    const { spec } = loadSpec(specPath);
    const res = writeDecisionTrace(join(dir, 't'), specPath, spec, decideWithEvents(spec, 'go'));
    expect(readdirSync(join(res.run_dir, 'events'))).toEqual([
      '000001.rule_matched.json',
      '000002.outcome_recorded.json',
    ]);
    expect(res.event_count).toBe(2);
  });

  it('compacts again from events/*.json only', () => {
    const dir = temp();
    const specPath = join(dir, 'skill.spec.yml');
    writeFileSync(specPath, SPEC);
    const { spec } = loadSpec(specPath);
    const res = writeDecisionTrace(join(dir, 't'), specPath, spec, decideWithEvents(spec, 'x'));
    writeFileSync(join(res.run_dir, 'events', 'stray.json.tmp'), 'not json');
    expect(compactTrace(res.run_dir).event_count).toBe(res.event_count);
  });
});

describe('pure helpers', () => {
  it('keeps every event when record is empty', () => {
    const spec = load(SPEC);
    const { events } = decideWithEvents(spec, 'go');
    expect(selectEvents(spec, events)).toHaveLength(events.length);
  });

  it('sorts keys recursively but keeps array order', () => {
    expect(JSON.stringify(sortKeysDeep({ b: [{ d: 1, c: 2 }], a: null }))).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });

  it('summarises an empty run', () => {
    expect(summaryFor([])).toEqual({
      schema: 'skillspec.trace/v0',
      run_id: 'empty',
      skill_id: 'unknown',
      event_count: 0,
      events: {},
    });
  });
});
