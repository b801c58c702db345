/** The install form's draft and the source string it becomes (kept free of React so it can be unit-tested). */

export type SourceKind = 'folder' | 'git' | 'github';
export interface Draft {
  kind: SourceKind;
  folder: string;
  gitUrl: string;
  gitRef: string;
  gitPath: string;
  github: string;
}
export const EMPTY: Draft = {
  kind: 'git',
  folder: '',
  gitUrl: '',
  gitRef: '',
  gitPath: '',
  github: '',
};

/** The source string the engine gets for a draft. */
export function sourceOf(d: Draft): string {
  if (d.kind === 'folder')
    return d.folder.trim() === ''
      ? ''
      : d.folder.trim().startsWith('file:')
        ? d.folder.trim()
        : `file:${d.folder.trim()}`;
  if (d.kind === 'github') {
    const v = d.github.trim();
    return v === '' ? '' : v.startsWith('gh:') ? v : `gh:${v}`;
  }
  const url = d.gitUrl.trim();
  if (!url) return '';
  const ref = d.gitRef.trim();
  const path = d.gitPath.trim().replace(/^\/+/, '');
  return ref || path ? `${url}#${ref}${path ? `:${path}` : ''}` : url;
}
