/** In-memory helpers for the SkillSpec engine tests: specs from YAML text, a fake file host. */
import type { SpecFiles } from '../../shared/skillspec/files';
import type { SkillSpec } from '../../shared/skillspec/model';
import { validateSpec } from '../../shared/skillspec/validate';
import { readSpecYaml } from '../../shared/skillspec/yaml';
import { fail, ok } from '../../shared/result';

export const HEADER = 'schema: skillspec/v0\nid: t.spec\ntitle: T\ndescription: A test spec.\n';

/** A spec document: the header plus `body` (YAML text at top level). */
export function doc(body = ''): string {
  return `${HEADER}${body}`;
}

export function parse(text: string): SkillSpec {
  return readSpecYaml(text, 'spec.yml');
}

/** Parse and validate (no file checks). */
export function load(text: string): SkillSpec {
  const spec = parse(text);
  validateSpec(spec);
  return spec;
}

/** The message a thunk throws, or "(no error)". */
export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return '(no error)';
}

/** Parse + validate `text` and return the first error message. */
export function validationError(text: string): string {
  return errorOf(() => load(text));
}

/** A file host over a plain object of relative path → content (`null` = a directory). */
export function memFiles(files: Readonly<Record<string, string | null>>): SpecFiles {
  const lookup = (rel: string): string | null | undefined => files[rel.replace(/^\.\//, '')];
  return {
    resolve: (rel) => rel,
    readText(rel) {
      const v = lookup(rel);
      if (v === undefined) return fail('not-found', 'No such file or directory (os error 2)');
      if (v === null) return fail('invalid-input', 'Is a directory (os error 21)');
      return ok(v);
    },
    stat(rel) {
      const v = lookup(rel);
      if (v === undefined) return fail('not-found', 'No such file or directory (os error 2)');
      return ok({ isFile: v !== null, size: v === null ? 0 : v.length });
    },
  };
}
