import { createInterface } from 'node:readline';
import { escapeTerminal } from '../../../shared/terminal/escape';

/** Both ends are a terminal: the only case where Skillsmith asks. */
export function interactive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Ask a question on the terminal; the answer, trimmed. */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await new Promise<string>((res) => rl.question(escapeTerminal(question, 'text'), res))).trim();
  } finally {
    rl.close();
  }
}

/** Ask a yes/no question on the terminal; only `y` or `yes` (any case) is yes. */
export async function confirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test(await ask(question));
}
