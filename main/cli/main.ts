import { sweepLeftovers } from '../services/sources/temp';
import { EXIT, terminalIo, type CliIo, type ExitCode } from './io';
import { VERSION } from './version';
import { ERROR_CODES, isCoded } from '../../shared/result';

/**
 * One entry per verb. A command may be async (install, run, serve); `main` awaits it.
 * New verbs register here with a one-line summary that `help` prints.
 */
export interface Command {
  readonly summary: string;
  run(argv: readonly string[], io: CliIo): ExitCode | Promise<ExitCode>;
}

// Every verb is loaded on demand, lint and test too: `--version`, `help` and the verbs that
// never lint then neither read nor compile the lint engine's chunk.
const COMMANDS: Record<string, Command> = {
  lint: {
    summary:
      'lint [path | name | file:source ...] [--strict] [--schema] [--json] [--sarif FILE] [--no-cache]  static checks and safety scanners',
    run: async (argv, io) => (await import('./commands/check')).runCheck('lint', argv, io),
  },
  test: {
    summary:
      'test [name | path ...] [--strict] [--json] [--no-cache]  the static tier, plus a listing of evals/*.eval.yaml (the other tiers: eval)',
    run: async (argv, io) => (await import('./commands/check')).runCheck('test', argv, io),
  },
  eval: {
    summary:
      'eval [skill ...] [--runner ID] [--repeat N] [--baseline] [--jobs N] [--shard K/N] [--json] [--junit FILE] | eval merge <results.json>... | eval --approve-runner ID  run audit, behavioral and trigger evals against coding agents, sandboxed; a runner runs only once approved; join CI shards',
    run: async (argv, io) => (await import('./commands/eval')).runEval(argv, io),
  },
  spec: {
    summary:
      'spec validate|test|decide|explain|compile|imports|deps <spec.yml> [--input TEXT] [--json] [--trace-dir DIR] [--target markdown|claude|codex]  SkillSpec v0 contracts',
    run: async (argv, io) => (await import('./commands/spec')).runSpec(argv, io),
  },
  init: {
    summary: 'init  write kitbash.toml (if absent) and create .kitbash/skills/',
    run: async (argv, io) => (await import('./commands/init')).runInit(argv, io),
  },
  install: {
    summary:
      'install <source> [--skill NAME]... [--yes] [--json] [--dry-run] [--approve HASH] [--no-compile]  stage, review, approve, commit, recompile (with dependencies; safety and [policy] never bypassed); a source of many skills is listed',
    run: async (argv, io) => (await import('./commands/install')).runInstall(argv, io),
  },
  remove: {
    summary:
      'remove <name> [--yes] [--no-compile]  remove an installed skill (refused while others depend on it), then recompile',
    run: async (argv, io) => (await import('./commands/remove')).runRemove(argv, io),
  },
  list: {
    summary: 'list [--json]  installed skills with versions and per-target standing cost',
    run: async (argv, io) => (await import('./commands/list')).runList(argv, io),
  },
  doctor: {
    summary: 'doctor [--json]  targets, standing cost, lock integrity, policy recheck, compiled-output drift',
    run: async (argv, io) => (await import('./commands/doctor')).runDoctor(argv, io),
  },
  update: {
    summary:
      'update [name] [--yes] [--approve <integrity>] [--json] [--no-compile]  refetch pinned sources; review diff with escalations (approved only by --approve), then the install path',
    run: async (argv, io) => (await import('./commands/update')).runUpdate(argv, io),
  },
  diff: {
    summary:
      'diff <name> [<name | path | source>]  manifest, permission and file diff (exit 0 same, 1 differs, 2 trouble)',
    run: async (argv, io) => (await import('./commands/diff')).runDiff(argv, io),
  },
  import: {
    summary:
      "import [--write] [--name N] [--no-compile]  existing CLAUDE.md, AGENTS.md, .cursor/rules, … → one skill and a drift report; hand-written skills in the agents' folders → adopted into .kitbash/skills",
    run: async (argv, io) => (await import('./commands/import')).runImport(argv, io),
  },
  compile: {
    summary:
      "compile [--strict] [--dry-run] [--json]  write every target agent's native files (dry-run: print the plan, write nothing)",
    run: async (argv, io) => (await import('./commands/compile')).runCompile(argv, io),
  },
  preview: {
    summary:
      "preview <path | name | file:source | git source> [--json]  each target's output with standing and loaded tokens (a git source: its install review first); nothing written",
    run: async (argv, io) => (await import('./commands/preview')).runPreview(argv, io),
  },
  explain: {
    summary:
      'explain <skill> <target> [--json]  why a skill is full, degraded or unsupported on a target, and what it costs',
    run: async (argv, io) => (await import('./commands/explain')).runExplain(argv, io),
  },
  matrix: {
    summary: 'matrix [--json]  installed skills × targets: full, degraded or unsupported, with reasons',
    run: async (argv, io) => (await import('./commands/matrix')).runMatrix(argv, io),
  },
  serve: {
    summary:
      'serve [--project DIR] [--example] [--port N] [--open]  the desktop app in a browser, on 127.0.0.1 with an access token',
    // Loaded on demand: the host (ws, zod, the dashboard) stays out of lint's start-up.
    run: async (argv, io) => (await import('./commands/serve')).runServe(argv, io),
  },
  sandbox: {
    summary:
      "sandbox probe [--json]  which sandbox this machine has, and each restriction's enforcement label (exit 1: runs refused)",
    run: async (argv, io) => (await import('./commands/sandbox')).runSandbox(argv, io),
  },
  run: {
    summary:
      'run <skill> <script> [--timeout S] [--max-output BYTES] [--max-processes N] [--max-open-files N] [--max-cpu S] [--max-memory SIZE] [--max-scratch SIZE] [--env NAME[=VALUE]] [--unconfined] [--raw] [-- args]  a skill script in the sandbox (its output escaped unless --raw)',
    run: async (argv, io) => (await import('./commands/run')).runRun(argv, io),
  },
  gate: {
    summary:
      "gate <skill> [--script NAME] [--timeout S] [--unconfined] [--raw] [-- args]  a gate's verdict: script exit code and validated artifacts",
    run: async (argv, io) => (await import('./commands/gate')).runGate(argv, io),
  },
};

function usage(): string {
  const lines = [
    `skillsmith ${VERSION} — author, check and install coding-agent skills`,
    '',
    'Usage: skillsmith <command> [args]',
    '',
  ];
  for (const [, c] of Object.entries(COMMANDS)) lines.push(`  ${c.summary}`);
  lines.push(
    '',
    'With no target, lint and test check every skill under .kitbash/skills/.',
    "Exit codes: 0 clean, 1 failures (or warnings with --strict), 2 usage errors; run and gate pass the script's own code on.",
    '"skillsmith <command> --help" shows one command.',
  );
  return lines.join('\n') + '\n';
}

export async function main(argv: readonly string[], rawIo: CliIo): Promise<ExitCode> {
  const [command, ...rest] = argv;
  // Past `--` the words belong to the script being run (`run x y -- --help`), not to us.
  const dashes = rest.indexOf('--');
  const own = dashes >= 0 ? rest.slice(0, dashes) : rest;
  const io = terminalIo(rawIo, { exactOut: own.includes('--json') });
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(usage());
    return EXIT.ok;
  }
  if (command === '--version') {
    io.out(`${VERSION}\n`);
    return EXIT.ok;
  }
  const c = COMMANDS[command];
  if (!c) {
    io.err(`skillsmith: unknown command "${command}"\n  run "skillsmith help" to see the commands.\n`);
    return EXIT.usage;
  }
  if (own.includes('--help') || own.includes('-h')) {
    io.out(`skillsmith ${c.summary}\n`);
    return EXIT.ok;
  }
  // A killed install's clone and staging copies go now, whatever this command is.
  await sweepLeftovers();
  try {
    return await c.run(rest, io);
  } catch (e) {
    // Never a stack trace for the user; the message says what went wrong, the code how to exit.
    io.err(`skillsmith ${command}: ${e instanceof Error ? e.message : String(e)}\n`);
    return isCoded(e) ? ERROR_CODES[e.code].exit : EXIT.failed;
  }
}
