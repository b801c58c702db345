import { sweepLeftovers } from '../services/sources/temp';
import { EXIT, terminalIo, type CliIo, type ExitCode } from './io';
import { VERSION } from './version';
import { ERROR_CODES, formatError, isCoded } from '../../shared/result';

/**
 * One entry per verb. A command may be async (install, run, serve); `main` awaits it.
 * New verbs register here with a one-line summary that `help` prints.
 */
export interface Command {
  readonly summary: string;
  run(argv: readonly string[], io: CliIo): ExitCode | Promise<ExitCode>;
  /**
   * The verb reads the project in the working directory: a `kitbash.toml` that does not load
   * stops it before it starts, with one line and this code (SPEC §10.7). A function decides
   * per command line (`eval merge` reads only its files); `doctor` reports it itself.
   */
  readonly project?: ExitCode | ((argv: readonly string[]) => ExitCode | undefined);
}

const PROJECT = EXIT.failed;

// Every verb is loaded on demand, lint and test too: `--version`, `help` and the verbs that
// never lint then neither read nor compile the lint engine's chunk.
const COMMANDS: Record<string, Command> = {
  lint: {
    project: PROJECT,
    summary:
      'lint [path | name | file:source ...] [--strict] [--schema] [--json] [--sarif FILE] [--no-cache]  static checks and safety scanners',
    run: async (argv, io) => (await import('./commands/check')).runCheck('lint', argv, io),
  },
  test: {
    project: PROJECT,
    summary:
      'test [name | path ...] [--strict] [--json] [--no-cache]  the static tier, plus a listing of evals/*.eval.yaml (the other tiers: eval)',
    run: async (argv, io) => (await import('./commands/check')).runCheck('test', argv, io),
  },
  eval: {
    project: (argv) => (argv[0] === 'merge' ? undefined : PROJECT),
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
    project: PROJECT,
    summary: 'init [--targets a,b]  write kitbash.toml (if absent) with the chosen targets and create .kitbash/skills/',
    run: async (argv, io) => (await import('./commands/init')).runInit(argv, io),
  },
  install: {
    project: PROJECT,
    summary:
      'install <source> [--list] [--all | --skill NAME|GLOB...] [--yes] [--json] [--dry-run] [--approve HASH] [--no-compile]  stage, review, approve, commit, recompile (with dependencies; safety and [policy] never bypassed); a source of many skills is listed, and its picks installed as one batch (one review, one approval, one compile)',
    run: async (argv, io) => (await import('./commands/install')).runInstall(argv, io),
  },
  remove: {
    project: PROJECT,
    summary:
      'remove <name> [--yes] [--no-compile]  remove an installed skill (refused while others depend on it), then recompile',
    run: async (argv, io) => (await import('./commands/remove')).runRemove(argv, io),
  },
  sign: {
    summary:
      'sign <skill> (--key FILE | --keyless [--identity-token-file FILE] [--fulcio-url URL] [--rekor-url URL])  a Sigstore bundle (OMS, DSSE) over the whole skill folder, written to its skill.oms.sig',
    run: async (argv, io) => (await import('./commands/sign')).runSign(argv, io),
  },
  list: {
    project: PROJECT,
    summary: 'list [--json]  installed skills with versions and per-target standing cost',
    run: async (argv, io) => (await import('./commands/list')).runList(argv, io),
  },
  doctor: {
    summary: 'doctor [--json]  targets, standing cost, lock integrity, policy recheck, compiled-output drift',
    run: async (argv, io) => (await import('./commands/doctor')).runDoctor(argv, io),
  },
  verify: {
    project: PROJECT,
    summary:
      'verify [--frozen] [--json] [--sarif FILE]  re-hash installed skills against kitbash.lock and agent files against compile (--frozen: also fail when install or compile would change anything); for CI',
    run: async (argv, io) => (await import('./commands/verify')).runVerify(argv, io),
  },
  sbom: {
    project: PROJECT,
    summary: 'sbom [--output FILE]  CycloneDX 1.6 JSON inventory of the installed, pinned skills',
    run: async (argv, io) => (await import('./commands/sbom')).runSbom(argv, io),
  },
  update: {
    project: PROJECT,
    summary:
      'update [name] [--yes] [--approve <integrity>] [--dry-run] [--ours|--theirs] [--json] [--no-compile]  refetch pinned sources; review diff with escalations (approved only by --approve); local edits are merged, backed up first',
    run: async (argv, io) => (await import('./commands/update')).runUpdate(argv, io),
  },
  lock: {
    project: PROJECT,
    summary: `lock export skills-lock [--overwrite skills-lock.json]  write kitbash.lock's sources into the skills CLI's skills-lock.json`,
    run: async (argv, io) => (await import('./commands/lock-export')).runLockExport(argv, io),
  },
  outdated: {
    project: PROJECT,
    summary:
      'outdated [--json]  installed skills whose pinned source has moved: versions, commits, files and escalations',
    run: async (argv, io) => (await import('./commands/outdated')).runOutdated(argv, io),
  },
  diff: {
    // diff(1)'s codes: a project it cannot read is trouble, not a difference.
    project: EXIT.usage,
    summary:
      'diff <name> [<name | path | source>]  manifest, permission and file diff (exit 0 same, 1 differs, 2 trouble)',
    run: async (argv, io) => (await import('./commands/diff')).runDiff(argv, io),
  },
  import: {
    project: PROJECT,
    summary:
      "import [--write] [--details] [--name N] [--targets a,b] [--no-compile]  existing CLAUDE.md, AGENTS.md, .cursor/rules, … → one skill and a drift report; hand-written skills in the agents' folders → adopted into .kitbash/skills",
    run: async (argv, io) => (await import('./commands/import')).runImport(argv, io),
  },
  compile: {
    project: PROJECT,
    summary:
      "compile [--strict] [--dry-run] [--json]  write every target agent's native files (dry-run: print the plan, write nothing)",
    run: async (argv, io) => (await import('./commands/compile')).runCompile(argv, io),
  },
  preview: {
    project: PROJECT,
    summary:
      "preview <path | name | file:source | git source> [--json]  each target's output with standing and loaded tokens (a git source: its install review first); nothing written",
    run: async (argv, io) => (await import('./commands/preview')).runPreview(argv, io),
  },
  explain: {
    project: PROJECT,
    summary:
      'explain <skill> <target> [--json]  why a skill is full, degraded or unsupported on a target, and what it costs',
    run: async (argv, io) => (await import('./commands/explain')).runExplain(argv, io),
  },
  matrix: {
    project: PROJECT,
    summary: 'matrix [--json]  installed skills × targets: full, degraded or unsupported, with reasons',
    run: async (argv, io) => (await import('./commands/matrix')).runMatrix(argv, io),
  },
  serve: {
    summary:
      'serve [--project DIR] [--example] [--port N] [--open]  the desktop app in a browser, on 127.0.0.1 with an access token',
    // Loaded on demand: the host (ws, zod, the dashboard) stays out of lint's start-up.
    run: async (argv, io) => (await import('./commands/serve')).runServe(argv, io),
  },
  'agent-hook': {
    summary:
      "agent-hook <target>  the hook an agent runs before each shell command: routes a delivered skill's script through run, refuses what cannot be routed (reads the agent's JSON on stdin)",
    run: async (argv, io) => (await import('./commands/agent-hook')).runAgentHook(argv, io),
  },
  sandbox: {
    summary:
      "sandbox probe [--json]  which sandbox this machine has, and each restriction's enforcement label (exit 1: runs refused)",
    run: async (argv, io) => (await import('./commands/sandbox')).runSandbox(argv, io),
  },
  run: {
    project: PROJECT,
    summary:
      'run <skill> <script> [--timeout S] [--max-output BYTES] [--max-processes N] [--max-open-files N] [--max-cpu S] [--max-memory SIZE] [--max-scratch SIZE] [--env NAME[=VALUE]] [--unconfined] [--raw] [-- args]  a skill script in the sandbox (its output escaped unless --raw)',
    run: async (argv, io) => (await import('./commands/run')).runRun(argv, io),
  },
  exceptions: {
    project: PROJECT,
    summary:
      'exceptions [list] [--json] | exceptions confirm <id>... | --all  which [[policy.exceptions]] take effect for you; confirm those that arrived with the project (once, as written)',
    run: async (argv, io) => (await import('./commands/exceptions')).runExceptions(argv, io),
  },
  scanners: {
    project: PROJECT,
    summary:
      'scanners [list] [--json] | scanners confirm <id>... | --all  the [scanners] of kitbash.toml the install review runs; confirm a command before it runs (once, as written)',
    run: async (argv, io) => (await import('./commands/scanners')).runScanners(argv, io),
  },
  gate: {
    project: PROJECT,
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
    'Exit codes: 0 ok; 1 failures (warnings too with --strict), refusals, or a project file that does not load;',
    "2 usage errors (diff: 2 trouble); 130 cancelled; run and gate pass the script's own code on.",
    '"skillsmith <command> --help" shows one command.',
  );
  return lines.join('\n') + '\n';
}

/** A project verb's refusal when the working directory's kitbash.toml does not load. */
async function brokenProject(
  c: Command,
  argv: readonly string[],
  cwd: string,
): Promise<{ message: string; exit: ExitCode } | undefined> {
  const exit = typeof c.project === 'function' ? c.project(argv) : c.project;
  if (exit === undefined) return undefined;
  // Loaded here, not at the top: `--version` and `help` never parse TOML.
  const { readProjectConfig } = await import('../services/project/config');
  const config = readProjectConfig(cwd);
  // The first line only: a config error's place and problem; its detail is doctor's to show.
  return config.ok ? undefined : { message: formatError(config.error).split('\n')[0]!, exit };
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
    const refused = await brokenProject(c, rest, io.cwd);
    if (refused) {
      io.err(`skillsmith ${command}: ${refused.message}\n`);
      return refused.exit;
    }
    return await c.run(rest, io);
  } catch (e) {
    // Never a stack trace for the user; the message says what went wrong, the code how to exit.
    io.err(`skillsmith ${command}: ${e instanceof Error ? e.message : String(e)}\n`);
    return isCoded(e) ? ERROR_CODES[e.code].exit : EXIT.failed;
  }
}
