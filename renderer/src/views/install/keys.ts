/** The query keys of the Install view (each defined once, here). */
export const installKeys = {
  planRemove: (root: string, dir: string) => ['install', 'planRemove', root, dir] as const,
  reviewFiles: (reviewId: string, skill: string) => ['review.files', reviewId, skill] as const,
  reviewFile: (reviewId: string, skill: string, path: string) => ['review.file', reviewId, skill, path] as const,
  /** Every skill's `skills.get` of the project (the prefix of `keys.skill`): an install or update changes them. */
  skillsOf: (root: string) => ['skills', 'get', root] as const,
};
