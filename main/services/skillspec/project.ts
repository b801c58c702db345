import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecValidation } from '../../../shared/ipc/channels/spec';
import { SpecError } from '../../../shared/skillspec/errors';
import { fail, ok } from '../../../shared/result';
import { validateImports, validateSidecars, type SpecFiles } from '../../../shared/skillspec/files';
import { validateSpec } from '../../../shared/skillspec/validate';
import { MAX_SPEC_BYTES, readSpecYaml } from '../../../shared/skillspec/yaml';
import { CodedError } from '../../../shared/result';
import { resolveInside } from '../fs/contain';
import { installedSkills, SKILLS_DIR } from '../skills/locate';
import { firstInvalidUtf8, ioErrorText } from './load';

/** The Playground's specs of the open project: listed, loaded and validated inside it. */

export const SPEC_FILE = 'skill.spec.yml';
const decoder = new TextDecoder('utf-8');

/**
 * The file host for a spec's import and sidecar checks, held inside the open project:
 * a path that climbs out of it (or a symlink that leads out) reads as missing, so a
 * spec can never make main read a file outside the project for the renderer.
 */
export function containedSpecFiles(root: string, specDirRel: string): SpecFiles {
  const inside = (rel: string): string | undefined => resolveInside(root, join(specDirRel, rel));
  const outside = 'outside the open project';
  return {
    resolve: (rel) => `${specDirRel.split('\\').join('/')}/${rel}`,
    readText(rel) {
      const abs = inside(rel);
      if (!abs) return fail('outside-project', outside);
      try {
        const bytes = readFileSync(abs);
        if (firstInvalidUtf8(bytes) !== -1) return fail('invalid-input', 'stream did not contain valid UTF-8');
        return ok(decoder.decode(bytes));
      } catch (e) {
        return fail('invalid-input', ioErrorText(e));
      }
    },
    stat(rel) {
      const abs = inside(rel);
      if (!abs) return fail('outside-project', outside);
      try {
        const st = statSync(abs);
        return ok({ isFile: st.isFile(), size: st.size });
      } catch (e) {
        return fail('invalid-input', ioErrorText(e));
      }
    },
  };
}

/** Parse, validate, then the import and sidecar checks — the CLI's full load, on text. */
export function validateSpecText(text: string, shownPath: string, files: SpecFiles): SpecValidation {
  try {
    const spec = readSpecYaml(text, shownPath);
    validateSpec(spec);
    validateImports(spec, shownPath, files);
    validateSidecars(spec, files);
    return { ok: true, tests: spec.tests.length, rules: spec.rules.length, routes: spec.routes.length };
  } catch (e) {
    if (e instanceof SpecError)
      return {
        ok: false,
        kind: e.kind,
        message: e.message,
        ...(e.position ? { line: e.position.line, column: e.position.column } : {}),
      };
    throw e;
  }
}

function specPathOf(root: string, dir: string): { rel: string; abs: string } {
  const rel = `${SKILLS_DIR}/${dir}/${SPEC_FILE}`.split('\\').join('/');
  const abs = resolveInside(root, rel);
  if (!abs) throw new CodedError('outside-project', `${dir}: resolves outside the open project`);
  return { rel, abs };
}

/** The installed skills that carry a spec file inside the project. */
export function listSpecs(root: string) {
  const specs = installedSkills(root).flatMap((l) => {
    if (l.kind !== 'folder') return [];
    const abs = join(l.abs, SPEC_FILE);
    try {
      const st = lstatSync(abs);
      if (!st.isFile() || !resolveInside(root, abs)) return [];
      return [
        { dir: l.nameHint, path: `${SKILLS_DIR}/${l.nameHint}/${SPEC_FILE}`.split('\\').join('/'), bytes: st.size },
      ];
    } catch {
      return [];
    }
  });
  return { specs };
}

/** A skill's spec text (bounded, UTF-8) with its full validation. */
export function loadSpec(root: string, dir: string) {
  const { rel, abs } = specPathOf(root, dir);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    throw new CodedError('not-found', `${rel}: ${dir} has no ${SPEC_FILE}`);
  }
  if (!st.isFile()) throw new CodedError('not-found', `${rel}: is not a regular file`);
  if (st.size > MAX_SPEC_BYTES)
    throw new CodedError(
      'unsupported',
      `${rel}: ${st.size} bytes; a skill spec may be at most ${MAX_SPEC_BYTES / 1024 / 1024} MiB`,
    );
  const bytes = readFileSync(abs);
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) throw new CodedError('unsupported', `${rel}: not valid UTF-8 (invalid sequence at byte ${bad})`);
  const text = decoder.decode(bytes);
  const specDirRel = `${SKILLS_DIR}/${dir}`;
  return {
    dir: dir,
    path: rel,
    text,
    validation: validateSpecText(text, rel, containedSpecFiles(root, specDirRel)),
  };
}
