import { useEffect, useState } from 'react';
import type { SpecFile } from '../../../../shared/ipc/channels/spec';
import { checkSpecText, type SkillSpec } from '../../../../shared/skillspec/index';
import { loadDraft, type Draft } from '../editor/drafts';
import { SPEC_FILE } from './spec-file';

export type Parsed = { ok: true; spec: SkillSpec } | { ok: false; message: string; where: string };

/** The spec as played: the file on disk, or the editor's unsaved draft of it. */
export type Shown = SpecFile & { draft?: Draft };

/** What the person typed, kept per project and skill for this tab (survives errors, reloads and tab switches). */
export function useStoredInput(root: string, dir: string): [string, (v: string) => void] {
  const key = `skillsmith.playground.v1\u0000${root}\u0000${dir}`;
  const [value, setValue] = useState<string>(() => read(key));
  useEffect(() => setValue(read(key)), [key]);
  const set = (v: string) => {
    setValue(v);
    try {
      sessionStorage.setItem(key, v);
    } catch {
      // storage refused: the input stays in memory
    }
  };
  return [value, set];
}

function read(key: string): string {
  try {
    return sessionStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

/** The editor's unsaved draft of the spec, re-read when the window regains focus or another tab writes one. */
export function useSpecDraft(root: string, dir: string): Draft | null {
  const [draft, setDraft] = useState<Draft | null>(() => loadDraft(root, dir, SPEC_FILE));
  useEffect(() => {
    const again = () => setDraft(loadDraft(root, dir, SPEC_FILE));
    window.addEventListener('focus', again);
    window.addEventListener('storage', again);
    return () => {
      window.removeEventListener('focus', again);
      window.removeEventListener('storage', again);
    };
  }, [root, dir]);
  return draft;
}

/**
 * The spec parsed and validated, for `file` (or its draft). Parsing a large spec takes a few
 * hundred ms, so it runs after a frame and the previous parse stays until the new one is done.
 */
export function useParsedSpec(file: Shown | undefined): { of: Shown; value: Parsed } | null {
  const [parsed, setParsed] = useState<{ of: Shown; value: Parsed } | null>(null);
  useEffect(() => {
    if (!file) return;
    const t = setTimeout(() => {
      const c = checkSpecText(file.text, file.path);
      const pos = !c.ok && c.error.position ? `:${c.error.position.line}:${c.error.position.column}` : '';
      setParsed({
        of: file,
        value: c.ok
          ? { ok: true, spec: c.value }
          : { ok: false, message: c.error.message, where: `${file.path}${pos}` },
      });
    }, 16);
    return () => clearTimeout(t);
  }, [file]);
  return parsed;
}
