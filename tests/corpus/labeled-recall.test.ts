/**
 * Recall and precision of the content checks on two public labeled sets (issue 39, item 2).
 *
 * tests/corpus/labeled-scope.json says, per class of labeled positive, which checks must
 * report it (or that the class is out of every check's scope, and what covers it instead).
 * Each in-scope positive must be reported by each of its checks, save the checked-in known
 * misses, which must match the real misses exactly so the list can only shrink. Every
 * blocking finding must be explained: on a positive in scope of that check it is true, on a
 * known-good skill it is a false alarm; anywhere else the table is incomplete. Per-check
 * precision and recall are printed (spec D261 quotes them).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Check, CheckId } from '../../shared/lint/types';
import { labeledDir, labeledSkills, scope, type LabeledSkill } from '../support/labeled';
import { requireOrSkip } from '../support/paths';
import { blocking, CONTENT_CHECK_IDS, lintTree, readTree, reported } from '../support/safety-lint';

const haveLabeled = requireOrSkip('the labeled sets (../shared/corpus/labeled)', existsSync(labeledDir));

interface Row {
  inScope: number;
  caught: number;
  trueFindings: number;
  falseAlarms: number;
}

/** A ratio as a percentage with its counts, or a dash when nothing was counted. */
function ratio(n: number, d: number): string {
  return d === 0 ? '— (0 of 0)' : `${((100 * n) / d).toFixed(0)} % (${n} of ${d})`;
}

describe.skipIf(!haveLabeled)('content checks on the labeled sets (tests/corpus/labeled-scope.json)', () => {
  const skills = haveLabeled ? labeledSkills() : [];
  const linted: Array<[LabeledSkill, Check[]]> = skills.map((s) => [s, lintTree(readTree(s.dir, labeledDir))]);

  it('walks both sets, and every positive has a class in the scope table', () => {
    expect(skills.filter((s) => s.good).length).toBeGreaterThanOrEqual(11);
    expect(skills.filter((s) => !s.good).length).toBeGreaterThanOrEqual(30);
    const unclassed = skills.filter((s) => s.cls !== undefined && !scope.classes[s.cls]).map((s) => s.name);
    const used = new Set(skills.map((s) => s.cls));
    const stale = Object.keys(scope.classes).filter((c) => !used.has(c));
    expect({ unclassed, stale }).toEqual({ unclassed: [], stale: [] });
    for (const [cls, c] of Object.entries(scope.classes)) {
      expect(c.why.length, cls).toBeGreaterThan(30);
      for (const id of c.checks) expect(CONTENT_CHECK_IDS, cls).toContain(id);
    }
  });

  it('each check reports every in-scope positive, the known misses aside (which may only shrink)', () => {
    const misses: string[] = [];
    for (const [s, checks] of linted) {
      for (const id of s.cls ? scope.classes[s.cls]!.checks : []) {
        if (!reported(checks, id)) misses.push(`${s.name}  ${id}`);
      }
    }
    const known = scope.knownMisses.map((m) => `${m.skill}  ${m.check}`);
    for (const m of scope.knownMisses) expect(m.why.length, m.skill).toBeGreaterThan(20);
    expect(misses.sort(), 'a fixed miss leaves knownMisses; a new one is a regression').toEqual(known.sort());
  });

  it('every blocking finding is on an in-scope positive or counted as a false alarm on a known-good skill', () => {
    const rows = new Map<CheckId, Row>(
      CONTENT_CHECK_IDS.map((id) => [id, { inScope: 0, caught: 0, trueFindings: 0, falseAlarms: 0 }]),
    );
    const unexplained: string[] = [];
    for (const [s, checks] of linted) {
      const inScope = s.cls ? scope.classes[s.cls]!.checks : [];
      for (const id of inScope) {
        const row = rows.get(id)!;
        row.inScope++;
        if (reported(checks, id)) row.caught++;
      }
      for (const c of blocking(checks)) {
        const row = rows.get(c.id)!;
        if (s.good) row.falseAlarms++;
        else if (inScope.includes(c.id)) row.trueFindings++;
        else unexplained.push(`${s.name}  ${c.id}: ${c.detail ?? ''}`);
      }
    }
    expect(unexplained, 'classify the finding in tests/corpus/labeled-scope.json').toEqual([]);

    const good = skills.filter((s) => s.good).length;
    const lines = [
      `labeled sets: ${skills.length - good} positives, ${good} known-good`,
      '| check | recall on in-scope positives | blocking findings: true / false alarm | precision |',
      '|---|---|---|---|',
    ];
    for (const [id, r] of rows) {
      const findings = r.trueFindings + r.falseAlarms;
      const precision = id === 'injection' ? 'warning only' : ratio(r.trueFindings, findings);
      lines.push(`| ${id} | ${ratio(r.caught, r.inScope)} | ${r.trueFindings} / ${r.falseAlarms} | ${precision} |`);
    }
    console.log(lines.join('\n'));
  });
});
