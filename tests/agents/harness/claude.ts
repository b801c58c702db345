/**
 * Claude Code as the real-agent suites run it: headless (`-p`, stream-json), its model at
 * the scripted API through ANTHROPIC_BASE_URL, telemetry, error reporting and update
 * checks off, a private HOME. Where it lists skills to its model is read here from the
 * recorded requests.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { commandFor, findRunner } from '../../../shared/evals/runners';
import { tempDir } from '../../sandbox/helpers';
import { skillsmithBin } from '../../support/paths';
import type { Recorded } from './net';

// The scripted API's own reading of a request (a module of the model API process), so what
// the listing is looked for in is what the API matched its conversations against.
const { anthropic } = (await import(new URL('./vendors/anthropic.mjs', import.meta.url).href)) as {
  anthropic: { texts(body: unknown): string[] };
};

export const CLAUDE_LISTING_HEADER = 'The following skills are available for use with the Skill tool:';

/** The variables Claude Code gets besides PATH: its model API, a key, and quiet. */
export function claudeEnv(apiUrl: string, home: string): Record<string, string> {
  return {
    HOME: home,
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-ant-scripted',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
  };
}

/**
 * A PATH for the agent with `skillsmith` on it, as an installed one would be (the script
 * guard of SPEC D200 calls it), its per-user folders private to the run; `false`: without.
 */
export function agentPath(skillsmith: boolean): string {
  const base = `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`;
  if (!skillsmith) return base;
  const bin = tempDir('skillsmith-agent-bin-');
  const cfg = tempDir('skillsmith-agent-cfg-');
  writeFileSync(
    join(bin, 'skillsmith'),
    `#!/bin/sh\nSKILLSMITH_CONFIG_DIR=${cfg} SKILLSMITH_CACHE_DIR=${cfg}/cache exec ${process.execPath} ${skillsmithBin} "$@"\n`,
  );
  chmodSync(join(bin, 'skillsmith'), 0o755);
  return `${bin}:${base}`;
}

/** The eval preset's command (shared/evals/runners.ts), run from `bin`. */
export function claudeArgv(bin: string, task: string): string[] {
  const [, ...rest] = commandFor(findRunner([], 'claude-code')!, task);
  return [bin, ...rest];
}

export interface Listed {
  readonly name: string;
  readonly description?: string;
}

/**
 * The skills a Claude Code request lists: the lines `- name: description` under the
 * listing header (a description may run over several lines until the next `- `). Past its
 * budget Claude Code lists a skill by name alone (`- name`): its description is undefined.
 */
export function claudeListing(req: Recorded): Listed[] | undefined {
  const text = anthropic.texts(req.body ?? {}).find((t) => t.includes(CLAUDE_LISTING_HEADER));
  if (text === undefined) return undefined;
  const after = text.slice(text.indexOf(CLAUDE_LISTING_HEADER) + CLAUDE_LISTING_HEADER.length);
  const out: Listed[] = [];
  for (const line of after.split('\n')) {
    if (line.startsWith('<')) break;
    const m = /^- ([^:\s]+)(?:: ?(.*))?$/.exec(line);
    if (m) out.push(m[2] === undefined ? { name: m[1]! } : { name: m[1]!, description: m[2] });
    else if (out.length && line !== '') {
      const last = out.pop()!;
      out.push({ ...last, description: `${last.description ?? ''}\n${line}` });
    }
  }
  return out;
}
