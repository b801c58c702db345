/**
 * The lock's verdict on an installed skill whose saved files no longer match its pin: the
 * way back is the re-pin review of the folder as it is now (the same checks as an install,
 * pinned only once approved), so the author's edits stay — an update would fetch the source
 * again over them. The editor never writes kitbash.lock itself. A skill with no pin is not
 * flagged: skills authored in the project are not pinned, only installed ones are.
 */
import { lineRange } from './text';
import type { Diagnostic } from './types';

export function driftDiagnostic(dir: string, texts: Readonly<Record<string, string>>): Diagnostic {
  const file = texts['skill.toml'] !== undefined ? 'skill.toml' : 'SKILL.md';
  return {
    file,
    severity: 'warning',
    code: 'lock',
    message:
      'lock: the saved files differ from what kitbash.lock pins (drift) — runs refuse the skill until it is reviewed and re-pinned',
    range: lineRange(texts[file] ?? '', 1),
    blocking: false,
    fixes: [
      {
        title: 'Review the saved files and re-pin…',
        edits: [],
        command: { kind: 'repin', dir },
      },
    ],
  };
}
