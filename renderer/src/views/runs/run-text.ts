/** Small pure pieces of the Runs view: what was typed, and how results are worded. */
import { IpcError } from '../../../../shared/ipc/errors';
import { escapeTerminal } from '../../../../shared/terminal/escape';

/** What to run, as `runs.plan` and `runs.start` take it. */
export interface Ask {
  skill: string;
  mode: 'run' | 'gate';
  script?: string;
  args: string[];
}

/** Arguments as typed: split on whitespace; "double" or 'single' quotes keep spaces. */
export function splitArgs(s: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** An error as one line, with the channel it came from and its contract code. */
export function errorText(e: unknown, where: string): string {
  const msg = e instanceof Error ? e.message : String(e);
  return `${msg} (${where}${e instanceof IpcError ? `, ${e.code}` : ''})`;
}

/** A duration: milliseconds under a second, else seconds (two decimals under ten). */
export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * A chunk of a script's output as the panel shows it: control characters as visible escapes
 * (`\e`, `\r`, `\x07`), newlines and tabs kept. A browser neither runs nor shows them — ESC
 * and BEL vanish, CR folds into a space — so without this an OSC 52 clipboard write or a
 * line the script "erased" would pass unseen; the CLI shows the same escapes.
 */
export function outputText(text: string): string {
  return escapeTerminal(text, 'text');
}
