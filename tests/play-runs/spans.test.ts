/**
 * Phrase spans for the playground's highlighting (shared/skillspec/spans.ts): every span
 * lies on text the rule's phrase really matches, and every rule decide() matched on a
 * phrase has one — checked on hand-made cases and on every scenario input of the corpus.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decide } from '../../shared/skillspec/decide';
import { matchedPhraseSpans, segmentInput } from '../../shared/skillspec/spans';
import { corpusDir, requireOrSkip } from '../support/paths';
import { load } from '../skillspec/helpers';

const SPEC = load(`schema: skillspec/v0
id: t.spans
title: T
description: Spans.
routes:
  - id: fix
    label: Fix
  - id: ship
    label: Ship
rules:
  - id: wants_fix
    when:
      user_says_any: ["Bug", "broken build"]
    prefer: fix
  - id: ship_it
    when:
      user_says_all_groups: [["ship", "release"], ["today"]]
    prefer: ship
  - id: recurring
    when:
      task_recurrence_likely: true
    forbid: [guessing]
  - id: never
    when:
      user_says_any: ["zebra"]
`);

const texts = (input: string) =>
  matchedPhraseSpans(SPEC, input).map((s) => [input.slice(s.start, s.end), s.rule_id, s.source]);

describe('matchedPhraseSpans', () => {
  it('finds each matched phrase, case-insensitively, with its plural, at its offsets in the original input', () => {
    expect(texts('Two BUGS and a Broken Build')).toEqual([
      ['BUGS', 'wants_fix', 'user_says_any'],
      ['Broken Build', 'wants_fix', 'user_says_any'],
    ]);
  });

  it('spans every group of an all-groups rule, and the keywords behind a true heuristic', () => {
    expect(texts('please release it today, daily')).toEqual([
      ['release', 'ship_it', 'user_says_all_groups'],
      ['today', 'ship_it', 'user_says_all_groups'],
      ['daily', 'recurring', 'heuristic'],
    ]);
  });

  it('never spans inside a word, and only for rules that matched', () => {
    expect(texts('debugging the shipyard')).toEqual([]);
    // "ship" is present but the `today` group is not, so ship_it did not match.
    expect(texts('ship the bug')).toEqual([['bug', 'wants_fix', 'user_says_any']]);
  });

  it('maps offsets back when lower-casing changes the length', () => {
    const input = 'İİ bug';
    const spans = matchedPhraseSpans(SPEC, input);
    expect(spans.map((s) => input.slice(s.start, s.end))).toEqual(['bug']);
  });

  it('cuts the input into plain and highlighted pieces that join back to the input', () => {
    const input = 'a bug today';
    const segs = segmentInput(input, matchedPhraseSpans(SPEC, input));
    expect(segs.map((s) => s.text).join('')).toBe(input);
    expect(segs.filter((s) => s.spans.length).map((s) => s.text)).toEqual(['bug']);
  });
});

const manifest = join(corpusDir, 'skillspec', 'MANIFEST.json');
const haveCorpus = requireOrSkip('the SkillSpec corpus at ../shared/corpus/skillspec', existsSync(manifest));

describe.skipIf(!haveCorpus)('spans over the corpus', () => {
  it('every phrase-matched rule of every scenario input has a span, and every span is a real bounded match', () => {
    const entries = (JSON.parse(readFileSync(manifest, 'utf8')) as { path: string; kind: string }[]).filter(
      (e) => e.kind === 'valid',
    );
    expect(entries.length).toBeGreaterThan(15);
    let checked = 0;
    for (const e of entries) {
      const spec = load(readFileSync(join(corpusDir, 'skillspec', e.path), 'utf8'));
      for (const t of spec.tests) {
        const d = decide(spec, t.input);
        const spans = matchedPhraseSpans(
          spec,
          t.input,
          d.matched_rules.map((m) => m.id),
        );
        for (const m of d.matched_rules) {
          const rule = spec.rules.find((r) => r.id === m.id)!;
          if (rule.when.user_says_any.length || rule.when.user_says_all_groups.length) {
            expect(
              spans.some((s) => s.rule_id === m.id && s.source !== 'heuristic'),
              `${e.path} ${t.name} ${m.id}`,
            ).toBe(true);
            checked++;
          }
        }
        for (const s of spans) {
          const hit = t.input.slice(s.start, s.end).toLowerCase();
          const p = s.phrase.toLowerCase().trim();
          expect([p, `${p}s`], `${e.path} ${t.name}`).toContain(hit);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
