/** The file the playground plays, in each skill's folder. */
export const SPEC_FILE = 'skill.spec.yml';
