/** The budget meter and the standing stub (what a lazy agent keeps in every session). */
import type { Skill } from '../../../../../shared/ksf/model';
import { standingStub } from '../../../../../shared/ksf/stub';
import { estimateTokens } from '../../../../../shared/ksf/tokens';
import type { Check, CheckId } from '../../../../../shared/lint/types';
import { Lines } from './text';
import type { Meter, Range } from './types';

/** The lint measures the resolved body (prompts inlined); its budget/standing details carry the figures. */
export function meterOf(skill: Skill, checks: readonly Check[]): Meter {
  const figure = (id: CheckId) => {
    const m = /~(\d+) tok/.exec(checks.find((c) => c.id === id)?.detail ?? '');
    return m ? Number(m[1]) : undefined;
  };
  return {
    bodyTokens: figure('budget') ?? estimateTokens(skill.body),
    budget: skill.manifest.context.budget,
    stubTokens: figure('standing') ?? estimateTokens(standingStub(skill.body)),
    standing: skill.manifest.context.standing,
    disclosure: skill.manifest.context.disclosure,
  };
}

export function stubRange(skill: Skill): Range | null {
  const body = skill.body;
  const stub = standingStub(body);
  if (stub === '') return null;
  const firstLine = stub.split('\n')[0]!;
  const lastLine = stub.split('\n').at(-1)!;
  const start = body.indexOf(firstLine);
  if (start < 0) return null;
  const endAt = body.indexOf(lastLine, start);
  const end = (endAt < 0 ? start + firstLine.length : endAt + lastLine.length) - start;
  return new Lines(skill.skillMd).range(skill.bodyOffset + start, end);
}
