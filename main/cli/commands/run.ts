import { parseArgs } from 'node:util';
import { formatBytes, shellQuote, plural } from '../../../shared/text/format';
import { formatSeconds } from '../../services/sandbox/policy';
import { LABEL, type RunLimits } from '../../services/sandbox/types';
import { startRun } from '../../services/runs/service';
import type { RunEvent, RunMode, RunPlan, RunResult } from '../../services/runs/types';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { CodedError } from '../../../shared/result';
import { escapeTerminal } from '../../../shared/terminal/escape';

const FLAGS = {
  timeout: { type: 'string' },
  'max-output': { type: 'string' },
  'max-processes': { type: 'string' },
  'max-open-files': { type: 'string' },
  'max-cpu': { type: 'string' },
  'max-memory': { type: 'string' },
  'max-scratch': { type: 'string' },
  env: { type: 'string', multiple: true },
  unconfined: { type: 'boolean' },
  raw: { type: 'boolean' },
  script: { type: 'string' },
} as const;

export interface ParsedRun {
  positionals: string[];
  args: string[];
  timeoutMs?: number;
  maxOutputBytes?: number;
  limits?: Partial<RunLimits>;
  env: Record<string, string>;
  unconfined: boolean;
  /** `--raw`: pass the script's own output on unescaped (control sequences and all). */
  raw: boolean;
  script?: string;
}

/** `<positionals and flags> [-- args for the script]`; flags after `--` belong to the script. */
export function parseRunArgs(
  argv: readonly string[],
  allowScriptFlag: boolean,
  parentEnv: Readonly<Record<string, string | undefined>>,
): ParsedRun {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? [...argv] : argv.slice(0, dash);
  const args = dash < 0 ? [] : argv.slice(dash + 1);
  const options = allowScriptFlag ? FLAGS : (({ script: _s, ...rest }) => rest)(FLAGS);
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: own, options, allowPositionals: true, strict: true }));
  } catch (e) {
    throw new CodedError(
      'invalid-request',
      (e instanceof Error ? e.message.split('\n')[0]! : String(e)).replace(
        /\. To specify a positional argument.*$/,
        '',
      ),
    );
  }
  const out: ParsedRun = {
    positionals,
    args,
    env: {},
    unconfined: values.unconfined === true,
    raw: values.raw === true,
  };
  if (typeof values.timeout === 'string') {
    const s = Number(values.timeout);
    if (!Number.isFinite(s) || s <= 0 || s > 86_400)
      throw new CodedError(
        'invalid-request',
        `--timeout ${values.timeout}: want seconds, more than 0 and at most 86400`,
      );
    out.timeoutMs = Math.round(s * 1000);
  }
  if (typeof values['max-output'] === 'string') {
    const n = Number(values['max-output']);
    if (!Number.isInteger(n) || n < 1 || n > 1024 ** 3)
      throw new CodedError(
        'invalid-request',
        `--max-output ${values['max-output']}: want a byte count from 1 to 1073741824`,
      );
    out.maxOutputBytes = n;
  }
  const limits: { -readonly [K in keyof RunLimits]?: number } = {};
  for (const [flag, key, max, unit] of LIMIT_FLAGS) {
    const raw = values[flag];
    if (typeof raw !== 'string') continue;
    const n = unit === 'bytes' ? parseSize(raw) : Number(raw);
    if (n === undefined || !Number.isInteger(n) || n < 1 || n > max)
      throw new CodedError(
        'invalid-request',
        `--${flag} ${raw}: want ${unit === 'bytes' ? 'a size such as 512M or 2G' : `a whole number of ${unit}`} from 1 to ${max}`,
      );
    limits[key] = n;
  }
  if (Object.keys(limits).length) out.limits = limits;
  for (const spec of (values.env as string[] | undefined) ?? []) {
    const eq = spec.indexOf('=');
    const name = eq < 0 ? spec : spec.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new CodedError('invalid-request', `--env ${spec}: not a variable name`);
    if (eq >= 0) out.env[name] = spec.slice(eq + 1);
    else {
      const v = parentEnv[name];
      if (v === undefined)
        throw new CodedError('invalid-request', `--env ${name}: not set in this environment (use --env ${name}=VALUE)`);
      out.env[name] = v;
    }
  }
  if (typeof values.script === 'string') out.script = values.script;
  return out;
}

const LIMIT_FLAGS: ReadonlyArray<
  readonly [
    'max-processes' | 'max-open-files' | 'max-cpu' | 'max-memory' | 'max-scratch',
    keyof RunLimits,
    number,
    string,
  ]
> = [
  ['max-processes', 'processes', 65_536, 'processes'],
  ['max-open-files', 'openFiles', 1_048_576, 'files'],
  ['max-cpu', 'cpuSeconds', 86_400, 'seconds'],
  ['max-memory', 'memoryBytes', 1024 ** 4, 'bytes'],
  ['max-scratch', 'scratchBytes', 1024 ** 4, 'bytes'],
];

/** `4096`, `512K`, `256M`, `2G` (binary units) as bytes. */
function parseSize(s: string): number | undefined {
  const m = /^(\d+)([KMG]?)i?B?$/i.exec(s.trim());
  if (!m) return undefined;
  return Number(m[1]) * 1024 ** ' KMG'.indexOf((m[2] || ' ').toUpperCase());
}

/**
 * `skillsmith run <skill> <script> [--timeout S] [--max-output BYTES] [--max-processes N] [--max-open-files N]
 * [--max-cpu S] [--max-memory SIZE] [--max-scratch SIZE] [--env NAME[=VALUE]]... [--unconfined] [--raw] [-- args]`
 */
export function runRun(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const p = parseRunArgs(argv, false, process.env);
  if (p.positionals.length !== 2)
    throw new CodedError(
      'invalid-request',
      "expected <skill> <script> [-- args] (the script is a file in the skill's scripts/)",
    );
  return runAndReport('run', p, io, p.positionals[0]!, p.positionals[1]);
}

/** Runs the service with live output on the terminal; Ctrl-C cancels the run. */
export async function runAndReport(
  mode: RunMode,
  p: ParsedRun,
  io: CliIo,
  skill: string,
  script: string | undefined,
): Promise<ExitCode> {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let result: RunResult;
  try {
    result = await startRun(
      {
        projectRoot: io.cwd,
        skill,
        mode,
        ...(script !== undefined ? { script } : {}),
        args: p.args,
        env: p.env,
        unconfined: p.unconfined,
        ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
        ...(p.maxOutputBytes !== undefined ? { maxOutputBytes: p.maxOutputBytes } : {}),
        ...(p.limits ? { limits: p.limits } : {}),
      },
      {},
      { signal: controller.signal, onEvent: (e) => render(e, io, mode, p.raw) },
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return exitCodeOf(result, mode);
}

/**
 * The process exit code: the script's own code when it ran to the end (a gate also fails
 * with 1 on a failing or invalid artifact), 1 for a refusal, a timeout or a run that
 * could not start, 130 for a cancelled run.
 */
export function exitCodeOf(r: RunResult, mode: RunMode): ExitCode {
  if (r.outcome === 'cancelled') return EXIT.interrupted;
  if (r.outcome !== 'exited') return EXIT.failed;
  if (r.exitCode !== null && r.exitCode !== EXIT.ok) return r.exitCode;
  if (mode === 'gate' && r.verdict !== 'pass') return EXIT.failed;
  return r.exitCode ?? EXIT.ok;
}

function render(e: RunEvent, io: CliIo, mode: RunMode, raw: boolean): void {
  switch (e.type) {
    case 'started':
      io.err(describePlan(e.plan));
      return;
    // The script's own streams are escaped like everything else a skill says: raw, an OSC 52
    // sequence writes the clipboard, OSC 0 retitles the window, and CR or cursor movement
    // rewrites lines — a forged "■ exit 0" over a failure. Escaped here (not left to a
    // terminalIo) so the guarantee holds for any io; `--raw` is the explicit opt-out.
    case 'stdout':
      (io.raw ?? io).out(raw ? e.text : escapeTerminal(e.text, 'text'));
      return;
    case 'stderr':
      (io.raw ?? io).err(raw ? e.text : escapeTerminal(e.text, 'text'));
      return;
    case 'truncated':
      io.err(`\n[skillsmith: ${e.stream} reached the ${formatBytes(e.limitBytes)} cap — the rest is dropped]\n`);
      return;
    case 'refused':
      io.err(`skillsmith ${mode}: refused — ${e.message}\n`);
      for (const row of e.rows ?? [])
        if (row.required && row.label === LABEL.advisory) io.err(`  ✗ ${row.id}: ${row.what} — ${row.label}\n`);
      return;
    case 'exit':
      io.err(describeExit(e.result, mode));
  }
}

export function describePlan(plan: RunPlan): string {
  const what = plan.script ?? 'artifacts only (no script)';
  const head = `▶ ${plan.skill}@${plan.version} ${what} (${plan.integrity.slice(0, 19)}…)`;
  if (!plan.script) return `${head}\n`;
  if (!plan.override) {
    const advisory = plan.rows.filter((r) => r.label === LABEL.advisory).map((r) => r.id);
    return `${head} — sandbox: ${plan.backend.backend}${advisory.length ? `; advisory: ${advisory.join(', ')}` : ''}\n`;
  }
  const lines = [
    `${head}`,
    `  ⚠ --unconfined: this one run goes ahead WITHOUT the OS sandbox (${plan.backend.reason ?? 'no backend'}).`,
    `  command: ${plan.argv.map(shellQuote).join(' ')}`,
    `  cwd:     ${plan.cwd}`,
    `  env:     ${Object.entries(plan.env)
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(' ')}`,
    '  not enforced in this run:',
    ...plan.rows.filter((r) => r.label === LABEL.advisory).map((r) => `    - ${r.id}: ${r.what}`),
    "  still held by the runner: the environment above, the timeout (the script's process group), the output caps.",
  ];
  return lines.join('\n') + '\n';
}

export function describeExit(r: RunResult, mode: RunMode): string {
  if (r.outcome === 'refused') return '';
  const parts: string[] = [];
  const took = `${r.durationMs} ms`;
  if (r.outcome === 'timeout')
    parts.push(
      `■ killed: ran past the timeout (${formatSeconds(r.durationMs - (r.durationMs % 100))}); the whole process tree was killed`,
    );
  else if (r.outcome === 'cancelled') parts.push(`■ cancelled after ${took}; the whole process tree was killed`);
  else if (r.outcome === 'failed-to-start') parts.push(`■ could not start: ${r.message ?? 'unknown error'}`);
  else parts.push(`■ exit ${String(r.exitCode)} in ${took}`);
  if (r.strays)
    parts.push(
      `■ ${r.strays === true ? 'processes' : plural(r.strays, 'process', 'processes')} still running when the script exited — killed`,
    );
  for (const s of ['stdout', 'stderr'] as const)
    if (r.dropped[s]) parts.push(`■ ${s} truncated: ${r.dropped[s]} bytes dropped`);
  if (mode === 'gate') {
    for (const a of r.artifacts ?? [])
      parts.push(
        `  ${a.status === 'pass' ? '✓' : '✗'} ${a.ref} ${a.file} — ${a.detail}${a.fresh === false ? ' (not written by this run)' : ''}`,
      );
    parts.push(r.verdict === 'pass' ? '■ gate: pass' : `■ gate: fail — ${r.verdictDetail ?? 'no verdict'}`);
  }
  if (r.writes) parts.push(...describeWrites(r.writes));
  if (r.message && r.outcome !== 'failed-to-start') parts.push(`■ ${r.message}`);
  return parts.join('\n') + '\n';
}

const CHANGE_MARK = { added: '+', changed: '~', deleted: '-' } as const;

/** What a write-granted run changed in the project: each applied path, each refused one with why (D183). */
function describeWrites(w: NonNullable<RunResult['writes']>): string[] {
  // The run chose these names: escaped like its output, so a name cannot rewrite the terminal.
  const name = (p: string): string => escapeTerminal(p);
  if (w.notApplied) return [`■ project unchanged: ${w.notApplied}`];
  const out = [
    w.applied.length === 0
      ? '■ project unchanged: the run changed nothing that was applied'
      : `■ applied to the project: ${w.applied.length} ${w.applied.length === 1 ? 'change' : 'changes'}`,
    ...w.applied.map((a) => `  ${CHANGE_MARK[a.change]} ${name(a.path)}${a.kind === 'dir' ? '/' : ''}`),
  ];
  if (w.refused.length > 0) {
    out.push(
      `■ refused: ${w.refused.length} ${w.refused.length === 1 ? 'path' : 'paths'} the run changed were not applied`,
    );
    for (const f of w.refused) out.push(`  ✗ ${name(f.path)} (${f.change}) — ${name(f.reason)}`);
  }
  return out;
}
