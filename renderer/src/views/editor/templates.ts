/** Starting texts for the files the editor adds to a skill. */

/** The first free `evals/new[-n].eval.yaml`. */
export function newEvalPath(files: ReadonlyMap<string, unknown>): string {
  for (let n = 1; ; n++) {
    const p = `evals/new${n === 1 ? '' : `-${n}`}.eval.yaml`;
    if (!files.has(p)) return p;
  }
}

export function specTemplate(dir: string): string {
  return [
    'schema: skillspec/v0',
    `id: ${dir.replace(/[^a-z0-9_.-]/g, '-')}`,
    `title: ${dir}`,
    'description: When this skill applies and what it decides.',
    'routes: []',
    '',
  ].join('\n');
}

export const promptTemplate = (name: string): string => `Instructions the body pulls in with {{prompt.${name}}}.\n`;
