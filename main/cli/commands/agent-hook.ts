import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { guardCommand } from '../../../shared/sandbox/guard';
import { generatedBy } from '../../../shared/targets/common';
import { TARGETS } from '../../../shared/targets/registry';
import { shellQuote } from '../../../shared/text/format';
import { CodedError } from '../../../shared/result';
import { EXIT, type CliIo, type ExitCode } from '../io';

/** More than any command an agent sends; past it the input is refused rather than read on. */
const MAX_INPUT = 1024 * 1024;

/**
 * `skillsmith agent-hook <target>`: the script guard an agent runs before each shell command
 * (SPEC D200). Reads the agent's hook input on stdin and answers in the agent's own form:
 * nothing (run it), a refusal, or the command routed through `skillsmith run`. Any failure
 * exits non-zero, and the hook's shell fallback then refuses a command naming a guarded skill.
 */
export async function runAgentHook(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const t = TARGETS.find((d) => d.id === argv[0]);
  const g = t?.scriptGuard;
  if (argv.length !== 1 || !t?.skillDir || !g) {
    const have = TARGETS.filter((d) => d.scriptGuard).map((d) => d.id);
    throw new CodedError('invalid-request', `expected one target with a script guard (${have.join(', ')})`);
  }
  const q = g.readInput(await readInput(), process.env);
  if (!q.ok) throw new CodedError('invalid-input', q.error);
  const { command, cwd, root } = q.value;
  if (command === undefined) return EXIT.ok;
  const decision = guardCommand({
    command,
    cwd,
    root,
    skillDir: t.skillDir,
    guarded: delivered(root, t.skillDir),
    caseFold: findsAnyCase(join(root, t.skillDir)),
  });
  const routed =
    decision.kind === 'route'
      ? `(cd ${shellQuote(root)} && exec ${[process.execPath, cliPath(), 'run', decision.skill, decision.script, '--', ...decision.args].map(shellQuote).join(' ')})`
      : undefined;
  (io.raw ?? io).out(g.answer(decision, q.value, routed));
  return EXIT.ok;
}

async function readInput(): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INPUT) throw new CodedError('invalid-input', `the hook input is over ${MAX_INPUT} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The CLI's own launcher, so the routed command runs this Skillsmith whatever PATH holds. */
function cliPath(): string {
  return process.argv[1] ?? 'skillsmith';
}

/**
 * Whether the file system finds `dir` under another spelling of its case: the same folder
 * (device and inode) under its own name upper-cased, in the same parent. Asked of the disk,
 * not the platform — a case-insensitive volume mounts on Linux too, and macOS volumes can be
 * case-sensitive.
 */
export function findsAnyCase(dir: string): boolean {
  const name = basename(dir);
  const other = join(
    dirname(dir),
    name.replace(/[a-z]+/g, (c) => c.toUpperCase()),
  );
  if (other === dir) return false;
  try {
    const a = statSync(dir);
    const b = statSync(other);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** Skill folders under `skillDir` whose SKILL.md Skillsmith generated: the skills it delivered there. */
function delivered(root: string, skillDir: string): Set<string> {
  const dir = join(root, skillDir);
  const out = new Set<string>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      if (!lstatSync(join(dir, name)).isDirectory()) continue;
      const md = join(dir, name, 'SKILL.md');
      if (!lstatSync(md).isFile()) continue;
      if (generatedBy(readFileSync(md, 'utf8')) !== undefined) out.add(name);
    } catch {
      // no SKILL.md, or unreadable: not a folder Skillsmith delivered
    }
  }
  return out;
}
