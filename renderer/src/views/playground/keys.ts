/** The file the playground plays, and the query keys of this view (each defined once, here). */
export const SPEC_FILE = 'skill.spec.yml';

export const specKeys = {
  all: (root: string) => ['spec', root] as const,
  list: (root: string) => ['spec', root, 'list'] as const,
  load: (root: string, dir: string) => ['spec', root, 'load', dir] as const,
};
