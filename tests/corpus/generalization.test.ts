/**
 * Do the blocking checks generalize beyond what they were tuned on? (issue 39, item 3)
 *
 * The labeled judgements are split by repository. TUNING: real-skills k-dense-scientific-
 * skills, the part the rule authors may read. HELD-OUT: real-skills mattpocock-skills and
 * obra-superpowers, and the known-good skills of the labeled sets (with the labeled in-scope
 * positives for recall). Precision of blocking verdicts (true findings / all blocking
 * findings, judged by tests/corpus/safety-verdicts.json; any finding on a known-good skill is
 * false) and recall (planted hostile lines, labeled positives) are computed on each part and
 * printed side by side; the held-out figures must not fall below tests/corpus/verdict-floors.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillDirs } from '../support/corpus';
import { labeledDir, labeledSkills, scope } from '../support/labeled';
import { corpusDir, repoRoot, requireOrSkip } from '../support/paths';
import { blockingKeys, lintTree, plantedMiss, readTree, reported, verdictKey, verdicts } from '../support/safety-lint';

const realSkills = resolve(corpusDir, 'real-skills');
const haveCorpora = requireOrSkip(
  'the real-skills and labeled corpora (../shared/corpus)',
  existsSync(realSkills) && existsSync(labeledDir),
);

const TUNING_REPOS = ['k-dense-scientific-skills'];
const HELD_OUT_REPOS = ['mattpocock-skills', 'obra-superpowers'];

const floors = (
  JSON.parse(readFileSync(resolve(repoRoot, 'tests/corpus/verdict-floors.json'), 'utf8')) as {
    heldOut: { minPrecision: number; maxFalseAlarms: number; minPlantedRecall: number; minLabeledRecall: number };
  }
).heldOut;

interface PartSkill {
  readonly dir: string;
  readonly root: string;
  readonly name: string;
  /** A known-good labeled skill: every blocking finding on it is false. */
  readonly knownGood: boolean;
}

interface Figures {
  skills: number;
  trueFindings: number;
  falseAlarms: number;
  unjudged: string[];
  everTrue: number;
  everFalse: number;
  planted: number;
  plantedMissed: string[];
}

const judged = new Map(verdicts.map((v) => [verdictKey(v), v.verdict]));

function realPart(repos: readonly string[]): PartSkill[] {
  return repos.flatMap((r) =>
    skillDirs(resolve(realSkills, r)).map((dir) => ({
      dir,
      root: realSkills,
      name: relative(realSkills, dir),
      knownGood: false,
    })),
  );
}

function measure(skills: readonly PartSkill[], repos: readonly string[]): Figures {
  const f: Figures = {
    skills: skills.length,
    trueFindings: 0,
    falseAlarms: 0,
    unjudged: [],
    everTrue: 0,
    everFalse: 0,
    planted: 0,
    plantedMissed: [],
  };
  skills.forEach((s, i) => {
    const tree = readTree(s.dir, s.root);
    for (const key of blockingKeys(s.name, lintTree(tree))) {
      const verdict = s.knownGood ? false : judged.get(key);
      if (verdict === undefined) f.unjudged.push(key);
      else if (verdict) f.trueFindings++;
      else f.falseAlarms++;
    }
    f.planted++;
    const miss = plantedMiss(tree, i, s.name);
    if (miss) f.plantedMissed.push(miss);
  });
  for (const v of verdicts.filter((x) => repos.some((r) => x.skill.startsWith(`${r}/`)))) {
    if (v.verdict) f.everTrue++;
    else f.everFalse++;
  }
  return f;
}

const pct = (n: number, d: number): string => (d === 0 ? '—' : `${((100 * n) / d).toFixed(0)} % (${n} of ${d})`);

describe.skipIf(!haveCorpora)('generalization: held-out figures stay above tests/corpus/verdict-floors.json', () => {
  const labeled = haveCorpora ? labeledSkills() : [];
  const tuning = haveCorpora ? measure(realPart(TUNING_REPOS), TUNING_REPOS) : undefined;
  const heldOutSkills: PartSkill[] = haveCorpora
    ? [
        ...realPart(HELD_OUT_REPOS),
        ...labeled.filter((s) => s.good).map((s) => ({ dir: s.dir, root: labeledDir, name: s.name, knownGood: true })),
      ]
    : [];
  const heldOut = haveCorpora ? measure(heldOutSkills, HELD_OUT_REPOS) : undefined;

  /** (skill, check) pairs of the labeled in-scope positives, and how many are reported. */
  const labeledPairs = { total: 0, reported: 0 };
  for (const s of labeled) {
    const checks = s.cls ? scope.classes[s.cls]!.checks : [];
    if (checks.length === 0) continue;
    const report = lintTree(readTree(s.dir, labeledDir));
    for (const id of checks) {
      labeledPairs.total++;
      if (reported(report, id)) labeledPairs.reported++;
    }
  }

  it('splits by repository: every real skill is in one part', () => {
    expect(tuning!.skills + heldOut!.skills - labeled.filter((s) => s.good).length).toBe(skillDirs(realSkills).length);
    expect(tuning!.skills).toBeGreaterThan(100);
    expect(heldOut!.skills).toBeGreaterThan(40);
  });

  it('every blocking finding on either part is judged', () => {
    expect(
      [...tuning!.unjudged, ...heldOut!.unjudged],
      'read the file and add the finding to tests/corpus/safety-verdicts.json',
    ).toEqual([]);
  });

  it('held-out precision, false alarms and recall are not below the recorded floors', () => {
    const rows = [
      ['tuning (k-dense-scientific-skills)', tuning!],
      ['held-out (mattpocock-skills, obra-superpowers, labeled known-good)', heldOut!],
    ] as const;
    const lines = [
      '| part | skills | blocking findings today: true / false | precision today | ever reported: true / false | precision ever | planted recall |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        ([name, f]) =>
          `| ${name} | ${f.skills} | ${f.trueFindings} / ${f.falseAlarms} | ${pct(f.trueFindings, f.trueFindings + f.falseAlarms)} | ${f.everTrue} / ${f.everFalse} | ${pct(f.everTrue, f.everTrue + f.everFalse)} | ${pct(f.planted - f.plantedMissed.length, f.planted)} |`,
      ),
      `held-out labeled in-scope positives: ${pct(labeledPairs.reported, labeledPairs.total)} of (skill, check) pairs reported`,
    ];
    console.log(lines.join('\n'));

    const h = heldOut!;
    const findings = h.trueFindings + h.falseAlarms;
    expect(h.falseAlarms, 'false alarms on the held-out part').toBeLessThanOrEqual(floors.maxFalseAlarms);
    if (findings > 0)
      expect(h.trueFindings / findings, 'held-out precision').toBeGreaterThanOrEqual(floors.minPrecision);
    expect(
      1 - h.plantedMissed.length / h.planted,
      `planted recall; missed:\n${h.plantedMissed.join('\n')}`,
    ).toBeGreaterThanOrEqual(floors.minPlantedRecall);
    expect(labeledPairs.reported / labeledPairs.total, 'held-out labeled recall').toBeGreaterThanOrEqual(
      floors.minLabeledRecall,
    );
  });
});
