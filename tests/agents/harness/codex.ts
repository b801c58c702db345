/**
 * Codex CLI as the real-agent suites run it: `codex exec` from the eval preset, its model
 * the scripted API through a `[model_providers]` table in a private CODEX_HOME (0.171.0
 * ignores OPENAI_BASE_URL: it still dialled its built-in host), analytics, feedback, OTel
 * export and the update check off. Where it lists skills to its model is read here from
 * the recorded requests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandFor, findRunner } from '../../../shared/evals/runners';
import type { Listed } from './claude';
import type { Recorded } from './net';

/**
 * A model Codex 0.171.0 has no metadata for. It then offers plain function tools
 * (`exec_command` with `cmd`) and sizes its skill listing for a 272,000-token window; its
 * default model (gpt-6.2-sol) instead wraps every tool in a JavaScript `exec` tool, which
 * a script cannot drive simply, and has a 500,000-token window.
 */
export const SCRIPTED_MODEL = 'skillsmith-scripted';

/**
 * Write CODEX_HOME/config.toml under `home` and return the variables Codex gets besides
 * PATH. `model: null` keeps Codex's own default model (for what a user's listing is).
 */
export function codexEnv(apiUrl: string, home: string, opts: { model?: string | null } = {}): Record<string, string> {
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const model = opts.model === undefined ? SCRIPTED_MODEL : opts.model;
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      ...(model === null ? [] : [`model = ${JSON.stringify(model)}`]),
      'model_provider = "scripted"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.scripted]',
      'name = "scripted"',
      `base_url = ${JSON.stringify(`${apiUrl}/v1`)}`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[feedback]',
      'enabled = false',
      '',
      '[otel]',
      'exporter = "none"',
      '',
    ].join('\n'),
  );
  return { HOME: home, CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-scripted' };
}

/** The eval preset's command (shared/evals/runners.ts), run from `bin`. */
export function codexArgv(bin: string, task: string): string[] {
  const [, ...rest] = commandFor(findRunner([], 'codex')!, task);
  return [bin, ...rest];
}

/** Every input text of a Responses request, by role. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAI Responses request body
export function inputTexts(body: any, role?: string): string[] {
  const out: string[] = [];
  for (const item of body?.input ?? []) {
    if (role !== undefined && item?.role !== role) continue;
    if (typeof item?.output === 'string') out.push(item.output);
    for (const c of Array.isArray(item?.content) ? item.content : []) if (typeof c?.text === 'string') out.push(c.text);
  }
  return out;
}

export interface CodexListed extends Listed {
  /** Codex lists every skill with a description (shortened, never left out). */
  readonly description: string;
  /** The entry's path as listed, `r<n>/<name>/SKILL.md`, and the root `r<n>` stands for. */
  readonly file: string;
  readonly root: string;
}

/**
 * The skills a Codex request lists: a developer message's `<skills_instructions>` block,
 * a `### Skill roots` table (`- \`r0\` = \`/abs\``) and under `### Available skills` one
 * line per skill, `- name: description (file: r1/name/SKILL.md)`.
 */
export function codexListing(req: Recorded): CodexListed[] | undefined {
  const text = inputTexts(req.body, 'developer').find((t) => t.includes('<skills_instructions>'));
  if (text === undefined) return undefined;
  const block = text.slice(text.indexOf('<skills_instructions>'), text.indexOf('</skills_instructions>'));
  const roots = new Map<string, string>();
  for (const m of block.matchAll(/^- `(r\d+)` = `([^`]*)`$/gm)) roots.set(m[1]!, m[2]!);
  const out: CodexListed[] = [];
  const listed = block.slice(block.indexOf('### Available skills'));
  for (const m of listed.matchAll(/^- ([^:\n]+?)(?:: (.*?))? \(file: ((r\d+)\/[^)]*)\)$/gm))
    out.push({ name: m[1]!, description: m[2] ?? '', file: m[3]!, root: roots.get(m[4]!) ?? '' });
  return out;
}
