import { isTable, type TomlTable } from '../ksf/toml';
import { agents } from '../targets/agents';
import { claudeCode } from '../targets/claude-code';
import { gemini } from '../targets/gemini';
import { isTargetId } from '../targets/registry';
import { TRANSCRIPT_FORMATS, type RunnerConfig, type TranscriptFormat } from './model';
import { fail, ok, type Result } from '../result';

export const DEFAULT_RUNNER_TIMEOUT_MS = 600_000;
const MAX_TIMEOUT_S = 86_400;

/**
 * Built-in runners, each the vendor's documented headless mode with its JSON event
 * stream. `doc` is where the command and the event format come from, `checked` the day
 * they were read. The agents need their model API, so network is on; each passes only its
 * own key through.
 */
export const PRESETS: readonly RunnerConfig[] = [
  {
    id: 'claude-code',
    preset: 'claude-code',
    command: [
      'claude',
      '-p',
      '{task}',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'acceptEdits',
      // Measured with the real CLI (tests/agents/claude-code.test.ts): in -p mode acceptEdits
      // denies the Skill tool for every skill whose SKILL.md has allowed-tools, and a skill's
      // allowed-tools pre-approves nothing, so its scripts could never run. The trial's
      // sandbox is what contains the agent; these only stop it refusing itself.
      '--allowedTools',
      'Skill,Bash,Read,Write,Edit,Glob,Grep',
    ],
    target: claudeCode.id,
    timeoutMs: DEFAULT_RUNNER_TIMEOUT_MS,
    network: true,
    env: ['ANTHROPIC_API_KEY'],
    read: [],
    home: [],
    transcript: 'claude-code',
    doc: 'https://code.claude.com/docs/en/headless (claude -p; stream-json needs --verbose; not --bare, which skips skills; the Skill tool_use names the skill)',
    checked: '2026-12-02',
    verified: { package: '@anthropic-ai/claude-code', agent: 'Claude Code', versions: ['2.1.197'] },
  },
  {
    id: 'codex',
    preset: 'codex',
    command: [
      'codex',
      'exec',
      '--json',
      // Measured with the real CLI 0.171.0 inside the trial sandbox: under workspace-write
      // Codex wraps each command in its own bubblewrap, which cannot map its user namespace
      // inside ours ("bwrap: setting up uid map: Operation not permitted"), and with HOME
      // under /tmp it also refuses to install its sandbox helper; every command failed and
      // the JSON stream showed none of them. The trial's sandbox is what contains the agent.
      '--sandbox',
      'danger-full-access',
      '{task}',
    ],
    target: agents.id,
    timeoutMs: DEFAULT_RUNNER_TIMEOUT_MS,
    network: true,
    env: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
    read: [],
    home: [],
    transcript: 'codex',
    doc: 'https://developers.openai.com/codex/noninteractive (codex exec --json: thread/turn/item JSONL; a skill is loaded by reading its SKILL.md)',
    checked: '2026-12-07',
    verified: { package: '@openai/codex', agent: 'Codex CLI', versions: ['0.171.0'] },
  },
  {
    id: 'gemini',
    preset: 'gemini',
    command: [
      'gemini',
      '-p',
      '{task}',
      '--output-format',
      'stream-json',
      '--yolo',
      // Measured with the real CLI 0.61.0 (tests/agents/gemini.test.ts): in a trial's fresh
      // workspace, an untrusted folder, -p exits 55 before its first request, having already
      // turned --yolo back into "default" approval (its source also skips workspace skills
      // there). --skip-trust trusts this one session, the same as GEMINI_CLI_TRUST_WORKSPACE
      // (the CLI sets that itself), so the preset needs no fixed env; with it the workspace
      // skills are listed and the system prompt says YOLO mode.
      '--skip-trust',
    ],
    target: gemini.id,
    timeoutMs: DEFAULT_RUNNER_TIMEOUT_MS,
    network: true,
    env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    read: [],
    home: [],
    transcript: 'gemini',
    doc: 'https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/headless.md (stream-json: init, message, tool_use, tool_result, result; skills load through activate_skill)',
    checked: '2026-12-02',
    verified: { package: '@google/gemini-cli', agent: 'Gemini CLI', versions: ['0.61.0'] },
  },
];

export type RunnersRead = Result<RunnerConfig[]>;

const KEYS = new Set(['preset', 'command', 'target', 'timeout', 'network', 'env', 'read', 'home', 'transcript']);

/**
 * `[evals.runners.<id>]` of kitbash.toml. A runner either names a `preset` and overrides
 * some of its fields, or gives `command` and `target` itself. Errors are one line naming
 * the file and the field.
 */
export function readRunners(raw: Readonly<TomlTable>, file = 'kitbash.toml'): RunnersRead {
  const evals = raw.evals;
  if (evals === undefined) return ok([]);
  if (!isTable(evals)) return fail('invalid-input', `${file}: evals: must be a table`);
  const table = evals.runners;
  if (table === undefined) return ok([]);
  if (!isTable(table))
    return fail('invalid-input', `${file}: evals.runners: must be a table of runners ([evals.runners.<id>])`);
  const runners: RunnerConfig[] = [];
  for (const [id, v] of Object.entries(table)) {
    const at = `${file}: evals.runners.${id}`;
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(id))
      return fail('invalid-input', `${at}: runner ids are lower-case letters, digits, - and _`);
    if (!isTable(v)) return fail('invalid-input', `${at}: must be a table`);
    const unknown = Object.keys(v).find((k) => !KEYS.has(k));
    if (unknown) return fail('invalid-input', `${at}.${unknown}: unknown field (known: ${[...KEYS].join(', ')})`);
    let base: RunnerConfig | undefined;
    if (v.preset !== undefined) {
      base = PRESETS.find((p) => p.id === v.preset);
      if (!base)
        return fail(
          'invalid-input',
          `${at}.preset: unknown preset ${JSON.stringify(v.preset)} (presets: ${PRESETS.map((p) => p.id).join(', ')})`,
        );
    }
    const command = v.command ?? base?.command;
    if (!Array.isArray(command) || command.length === 0 || command.some((c) => typeof c !== 'string' || c === '')) {
      return fail(
        'invalid-input',
        `${at}.command: must be a non-empty list of strings (argv; {task} is replaced by the task)`,
      );
    }
    if (!command.some((c: string) => c.includes('{task}')))
      return fail('invalid-input', `${at}.command: no element holds {task} — the agent would never see the task`);
    const target = v.target ?? base?.target;
    if (typeof target !== 'string' || !isTargetId(target))
      return fail('invalid-input', `${at}.target: must be a compile target id (got ${JSON.stringify(target ?? null)})`);
    let timeoutMs = base?.timeoutMs ?? DEFAULT_RUNNER_TIMEOUT_MS;
    if (v.timeout !== undefined) {
      const s = typeof v.timeout === 'bigint' ? Number(v.timeout) : v.timeout;
      if (typeof s !== 'number' || !(s > 0 && s <= MAX_TIMEOUT_S))
        return fail('invalid-input', `${at}.timeout: seconds, more than 0 and at most ${MAX_TIMEOUT_S}`);
      timeoutMs = Math.round(s * 1000);
    }
    const network = v.network ?? base?.network ?? false;
    if (typeof network !== 'boolean') return fail('invalid-input', `${at}.network: must be true or false`);
    const list = (k: 'env' | 'read' | 'home', ok: (s: string) => boolean, what: string): string[] | string => {
      const x = v[k] ?? base?.[k] ?? [];
      if (!Array.isArray(x) || x.some((s) => typeof s !== 'string' || !ok(s)))
        return `${at}.${k}: must be a list of ${what}`;
      return x as string[];
    };
    const env = list('env', (s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s), 'variable names');
    if (typeof env === 'string') return fail('invalid-input', env);
    const read = list('read', (s) => s !== '', 'paths');
    if (typeof read === 'string') return fail('invalid-input', read);
    const home = list(
      'home',
      (s) => homeRelative(s) !== undefined,
      'files under your home folder (.codex/config.toml)',
    );
    if (typeof home === 'string') return fail('invalid-input', home);
    const transcript = v.transcript ?? base?.transcript ?? 'text';
    if (typeof transcript !== 'string' || !(TRANSCRIPT_FORMATS as readonly string[]).includes(transcript)) {
      return fail('invalid-input', `${at}.transcript: must be one of ${TRANSCRIPT_FORMATS.join(', ')}`);
    }
    runners.push({
      id,
      command: command as string[],
      target,
      timeoutMs,
      network,
      env,
      read,
      home: [...new Set(home.map((h) => homeRelative(h)!))],
      transcript: transcript as TranscriptFormat,
      ...(base
        ? {
            preset: base.id,
            ...(base.doc ? { doc: base.doc } : {}),
            ...(base.checked ? { checked: base.checked } : {}),
            // Only while the command is the preset's: another program has other output.
            ...(base.verified && command[0] === base.command[0] ? { verified: base.verified } : {}),
          }
        : {}),
    });
  }
  return ok(runners);
}

/**
 * A `home` entry as a path relative to the home folder (`~/` allowed), or undefined when it
 * is not one: absolute, empty, stepping out with `..`, or another user's (`~name`).
 */
export function homeRelative(entry: string): string | undefined {
  const p = entry.replace(/^~\//, '').split('\\').join('/');
  const parts = p.split('/').filter((x) => x !== '' && x !== '.');
  if (/^([/~]|[A-Za-z]:)/.test(p) || parts.length === 0 || parts.includes('..')) return undefined;
  return parts.join('/');
}

/** A runner by id: configured ones first, then the presets. */
export function findRunner(configured: readonly RunnerConfig[], id: string): RunnerConfig | undefined {
  return configured.find((r) => r.id === id) ?? PRESETS.find((p) => p.id === id);
}

/** `{task}` substituted in every element (the task is one argv element, never shell text). */
export function commandFor(runner: RunnerConfig, task: string): string[] {
  return runner.command.map((c) => c.split('{task}').join(task));
}

/**
 * A warning when the agent a preset runs is not a version its transcript reader was
 * verified with, or its version cannot be told; undefined when it was verified.
 */
export function versionWarning(
  runner: RunnerConfig,
  installed: { readonly name: string; readonly version: string } | undefined,
): string | undefined {
  const v = runner.verified;
  if (!v) return undefined;
  const known = v.versions.join(', ');
  if (installed === undefined || installed.name !== v.package)
    return `runner ${runner.id}: cannot tell which ${v.agent} version runs (not the npm package ${v.package}); its output was verified with ${known} only, so verdicts may read wrong`;
  if (v.versions.includes(installed.version)) return undefined;
  return `runner ${runner.id}: ${v.agent} ${installed.version} is not a version this preset was verified with (${known}); its output may have changed, so verdicts may read wrong`;
}
