import { stringify } from 'yaml';
import type { TrialResult } from './model';

/** The editor's new-eval template: a behavioral eval with one of each common assertion, commented. */
export function evalTemplate(skill: string): string {
  return [
    `# A behavioral eval of ${skill}: run it with "skillsmith eval ${skill} --baseline" or from the Evals view.`,
    '# Fields and assertions: spec/SPEC.md "Evals" (completion: Ctrl+Space).',
    'tier: behavioral',
    'description: what the skill should make the agent do',
    '# fixture: fixtures/repo   # a folder of this skill copied into each trial',
    `task: Describe a task that should make the agent use ${skill}`,
    'repeat: 3',
    'threshold: 1.0',
    'assert:',
    '  - skill_triggered: true',
    '  - exit_code: 0',
    '  - output_contains: "done"',
    'files_unchanged: ["src/**"]',
    '',
  ].join('\n');
}

/** The agent's last reply line, short enough to assert on. */
function replySnippet(output: string): string | undefined {
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= 3)
    .pop();
  return line === undefined ? undefined : line.length > 80 ? line.slice(0, 80) : line;
}

/**
 * "Save this as an eval": a finished trial turned into an eval file that expects what
 * the trial did — same task, the files it changed, its exit code, its reply, and whether
 * the skill loaded (only when the transcript could tell). The author edits it from there.
 */
export function evalFromTrial(
  trial: Pick<TrialResult, 'task' | 'exitCode' | 'changed' | 'skillLoaded' | 'baseline'>,
  output: string,
  fixture?: string,
): string {
  const assert: Record<string, unknown>[] = [];
  if (trial.skillLoaded !== 'unknown') assert.push({ skill_triggered: trial.skillLoaded === 'yes' });
  if (trial.exitCode !== null) assert.push({ exit_code: trial.exitCode });
  if (trial.changed.length) assert.push({ files_changed: [...trial.changed] });
  const reply = replySnippet(output);
  if (reply !== undefined) assert.push({ output_contains: reply });
  const doc = {
    tier: 'behavioral',
    description: `saved from a ${trial.baseline ? 'baseline ' : ''}trial — edit the expectations to what the skill should achieve`,
    ...(fixture !== undefined ? { fixture } : {}),
    task: trial.task,
    repeat: 3,
    threshold: 1,
    assert,
  };
  return stringify(doc, { lineWidth: 0 });
}
