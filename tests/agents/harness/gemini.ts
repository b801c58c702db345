/**
 * Gemini CLI as the real-agent suites run it: the eval preset's command, its model at the
 * scripted API through GOOGLE_GEMINI_BASE_URL with API-key auth, usage statistics,
 * telemetry and update checks off, a private HOME. Where it lists skills to its model is
 * read here from the recorded requests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandFor, findRunner } from '../../../shared/evals/runners';
import type { Listed } from './claude';
import type { Recorded } from './net';

/** Where Gemini CLI's system instruction holds the skill listing. */
export const GEMINI_LISTING_OPEN = '<available_skills>';
const GEMINI_LISTING_CLOSE = '</available_skills>';

/**
 * The user settings file Gemini CLI reads from `$HOME/.gemini/settings.json`. Retries are
 * cut to one attempt: a scripted error would otherwise be replayed ten times with backoff
 * of up to 30 s each, and what the suites judge is how the run ends, not the retry policy.
 */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
};

/**
 * The variables Gemini CLI gets besides PATH: its model API, a key, and quiet. TMPDIR is
 * private too: on an API error the CLI writes a report file into it.
 */
export function geminiEnv(apiUrl: string, home: string): Record<string, string> {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(join(home, 'tmp'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(GEMINI_SETTINGS, null, 2));
  return {
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    GEMINI_API_KEY: 'gemini-scripted-key',
    GEMINI_TELEMETRY_ENABLED: 'false',
  };
}

/** The eval preset's command (shared/evals/runners.ts), run from `bin`. */
export function geminiArgv(bin: string, task: string): string[] {
  const [, ...rest] = commandFor(findRunner([], 'gemini')!, task);
  return [bin, ...rest];
}

/** The text of a generateContent request's system instruction. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a Gemini generateContent request body
export function systemTextOf(body: any): string {
  const si = body?.systemInstruction;
  if (typeof si === 'string') return si;
  const parts: unknown = si?.parts;
  return Array.isArray(parts)
    ? parts.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
    : '';
}

/**
 * The skills a Gemini CLI request lists: the `<skill>` entries (name, description,
 * location) of the `<available_skills>` block in its system instruction, as sent (Gemini
 * CLI does not escape them); undefined when the request has no such block.
 */
export function geminiListing(req: Recorded): Listed[] | undefined {
  const text = systemTextOf(req.body);
  const start = text.indexOf(GEMINI_LISTING_OPEN);
  if (start < 0) return undefined;
  const end = text.indexOf(GEMINI_LISTING_CLOSE, start);
  const block = text.slice(start + GEMINI_LISTING_OPEN.length, end < 0 ? undefined : end);
  const out: Listed[] = [];
  for (const m of block.matchAll(/<skill>\s*<name>([\s\S]*?)<\/name>\s*<description>([\s\S]*?)<\/description>/g))
    out.push({ name: m[1]!, description: m[2]! });
  return out;
}
