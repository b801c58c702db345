/**
 * Temporary projects for driving the built CLI (bin/skillsmith.cjs) the way a user does.
 * Every project is a fresh folder under os.tmpdir(); `cleanup()` removes them all.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { runCli, skillsmithBin, type RunResult } from '../support/paths';

const made: string[] = [];

export function tempProject(prefix = 'skillsmith-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export type FileSpec = string | Uint8Array | { symlink: string };

/** Write files (paths relative to `root`, '/'-separated), creating parent folders. */
export function writeFiles(root: string, files: Readonly<Record<string, FileSpec>>): void {
  for (const [rel, spec] of Object.entries(files)) {
    const abs = join(root, ...rel.split('/'));
    mkdirSync(dirname(abs), { recursive: true });
    if (typeof spec === 'object' && !(spec instanceof Uint8Array)) symlinkSync(spec.symlink, abs);
    else writeFileSync(abs, spec);
  }
}

export function toml(opts: { name: string; description?: string; budget?: number; extra?: string }): string {
  return [
    '[skill]',
    `name = "${opts.name}"`,
    'version = "1.0.0"',
    `description = "${opts.description ?? 'A skill written by the CLI tests.'}"`,
    '',
    '[context]',
    `budget = ${opts.budget ?? 1500}`,
    '',
    opts.extra ?? '',
  ].join('\n');
}

/** A clean manifested skill at `<root>/<rel>`. */
export function cleanSkill(
  root: string,
  rel: string,
  name: string,
  more: Readonly<Record<string, FileSpec>> = {},
): void {
  const files: Record<string, FileSpec> = {
    [`${rel}/SKILL.md`]: `# ${name}\n\nDoes one small thing well.\n`,
    [`${rel}/skill.toml`]: toml({ name }),
  };
  for (const [k, v] of Object.entries(more)) files[`${rel}/${k}`] = v;
  writeFiles(root, files);
}

export function cli(cwd: string, ...args: string[]): RunResult {
  return runCli(args, { cwd });
}

/**
 * Permission tests need a user that file modes apply to. Root ignores them, so as root
 * the CLI runs as `nobody` (uid/gid 65534) instead.
 */
export const unprivileged: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

export function cliAs(user: { uid?: number; gid?: number }, cwd: string, ...args: string[]): RunResult {
  return runCli(args, { cwd, ...user });
}

/** Suites that drive the binary start here: `npm test` builds before it runs vitest. */
export function requireBuiltCli(): void {
  if (!builtCliExists()) throw new Error('the CLI is not built: run "npm run build" first');
}

export function builtCliExists(): boolean {
  return existsSync(skillsmithBin) && existsSync(join(dirname(skillsmithBin), '..', 'out', 'main', 'cli.js'));
}

/** No stack-trace frames anywhere in the output. */
export function expectNoStack(r: RunResult): void {
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/^\s{4}at /m);
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/\bat (?:Object|Module|node:internal)/);
}

export interface JsonCheck {
  id: string;
  status: 'pass' | 'warn' | 'fail';
  detail: string;
  locations?: Array<{ file: string; line: number; column: number; endLine: number; endColumn: number }>;
}
export interface JsonSkill {
  name: string;
  version: string | null;
  path: string;
  manifested: boolean;
  checks: JsonCheck[];
}

/** stdout must be exactly one JSON array. */
export function parseJson(r: RunResult): JsonSkill[] {
  let v: unknown;
  try {
    v = JSON.parse(r.stdout);
  } catch {
    throw new Error(
      `stdout is not JSON (exit ${r.code}):\n${r.stdout.slice(0, 1000)}\nstderr:\n${r.stderr.slice(0, 1000)}`,
    );
  }
  expect(Array.isArray(v), 'stdout is a JSON array').toBe(true);
  return v as JsonSkill[];
}

/** Lines of the human report that carry a check (`    <sym> <id>[ — detail]`). */
export function humanChecks(stdout: string): Array<{ skill: string; id: string; status: string; detail: string }> {
  const out: Array<{ skill: string; id: string; status: string; detail: string }> = [];
  let skill = '';
  for (const line of stdout.split('\n')) {
    const head = /^([✓⚠✗]) (\S+)$/u.exec(line);
    if (head) {
      skill = head[2]!;
      continue;
    }
    const m = /^ {4}([·⚠✗]) ([a-z][a-z-]*)(?: — (.*))?$/u.exec(line);
    if (m)
      out.push({
        skill,
        id: m[2]!,
        status: m[1] === '·' ? 'pass' : m[1] === '⚠' ? 'warn' : 'fail',
        detail: m[3] ?? '',
      });
  }
  return out;
}
