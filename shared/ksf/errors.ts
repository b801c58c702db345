/**
 * A problem that stops a skill from loading. `file` is the display path of the file at
 * fault; `problems` holds every manifest violation when the manifest itself is invalid.
 */
export interface LoadError {
  readonly kind: 'load-error';
  readonly file: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly problems?: readonly string[];
}

export function loadError(
  file: string,
  message: string,
  extra: Partial<Pick<LoadError, 'line' | 'column' | 'problems'>> = {},
): LoadError {
  return { kind: 'load-error', file, message, ...extra };
}

/** One line for the user: `<file>:<line>:<col>: <message>`; manifest problems follow, indented. */
export function formatLoadError(e: LoadError): string {
  const where = e.line !== undefined ? `${e.file}:${e.line}${e.column !== undefined ? `:${e.column}` : ''}` : e.file;
  const head = `${where}: ${e.message}`;
  return e.problems && e.problems.length > 0 ? `${head}\n${e.problems.map((p) => `  - ${p}`).join('\n')}` : head;
}

export type Result<T, E = LoadError> = { ok: true; value: T } | { ok: false; error: E };
