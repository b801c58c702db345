import type { CompilePlan } from '../../../shared/compile/plan';
import { TARGET_IDS } from '../../../shared/targets/types';
import type { CompileRecorder } from '../../services/compile';
import { recordedReport } from '../../services/compile/recorded';
import { parseCommandArgs } from '../args';
import type { CliIo, ExitCode } from '../io';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { plural } from '../../../shared/text/format';
import { isCoded } from '../../../shared/result';
import { EXIT } from '../io';

const FLAGS = { strict: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } } as const;

/** `skillsmith compile [--strict] [--dry-run] [--json]`: plan, then apply (or only print the plan). */
export async function runCompile(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length) {
    io.err(
      `skillsmith compile: unexpected argument "${positionals[0]}" — compile takes no targets (set [project].targets in kitbash.toml)\n`,
    );
    return EXIT.usage;
  }
  const dry = flags['dry-run'] === true;
  const say = flags.json ? io.err : io.out;
  // Nothing changed since the last complete compile: its report, without reading a skill.
  const recorded = flags.json ? undefined : recordedReport(io.cwd);
  if (recorded) return finish({ ...recorded, failures: [], withheld: [] }, dry, flags.strict === true, say, io);
  // Only now the planner: the answer above must not pay for loading it.
  const compile = await import('../../services/compile');
  const recorder = dry ? undefined : compile.CompileRecorder.start(io.cwd);
  try {
    return await planAndApply(compile, io, recorder, dry, flags);
  } finally {
    recorder?.abandon();
  }
}

async function planAndApply(
  compile: typeof import('../../services/compile'),
  io: CliIo,
  recorder: CompileRecorder | undefined,
  dry: boolean,
  flags: { json?: boolean; strict?: boolean },
): Promise<ExitCode> {
  const { applyPlan, planProject } = compile;
  const plan = recorder ? recorder.plan() : planProject(io.cwd);
  if (flags.json) {
    const bytes = (c: string | Uint8Array): number => (typeof c === 'string' ? Buffer.byteLength(c) : c.length);
    io.out(
      `${JSON.stringify(
        {
          errors: plan.errors,
          targets: plan.targets,
          write: plan.write.map((f) => ({
            path: f.path,
            changed: f.changed,
            bytes: bytes(f.content),
            skill: f.skill ?? null,
          })),
          merge: plan.merge.map((f) => ({ path: f.path, changed: f.changed, bytes: bytes(f.content), kind: f.merge })),
          prune: plan.prune.map((p) => ({ path: p.path, action: p.action, reason: p.reason })),
          warnings: plan.warnings,
          notes: plan.notes,
          failures: plan.failures,
          withheld: plan.withheld,
          standing: plan.standing,
          dryRun: dry,
        },
        null,
        2,
      )}\n`,
    );
  }
  const say = flags.json ? io.err : io.out;
  for (const f of plan.failures)
    io.err(`✗ ${escapeTerminal(f.name)}: skipped — ${escapeTerminal(f.message.split('\n')[0] ?? '')}\n`);
  // Said before anything is written, so that the removals below read as what they are.
  for (const w of plan.withheld) io.err(`✗ ${escapeTerminal(compile.describeWithheld(w))}\n`);
  if (plan.errors.length) {
    for (const e of plan.errors) io.err(`✗ ${e}\n`);
    io.err('nothing was written.\n');
    return EXIT.failed;
  }
  if (dry) {
    for (const f of plan.write) if (f.changed) say(`would write ${f.path}\n`);
    for (const f of plan.merge)
      if (f.changed)
        say(`would merge ${f.path}${f.merge === 'settings' ? ' (settings, by key)' : ' (marked sections)'}\n`);
    for (const p of plan.prune)
      say(
        p.action === 'rewrite' ? `would prune stale text from ${p.path}\n` : `would remove ${p.path} (${p.reason})\n`,
      );
  } else {
    try {
      const applied = await applyPlan(io.cwd, plan, { ...(recorder && { written: recorder.written }) });
      await recorder?.finish(plan, applied);
      for (const p of applied.written) say(`→ ${p}\n`);
      for (const p of applied.rewritten) say(`✂ pruned stale text from ${p}\n`);
      for (const p of applied.removed) say(`✂ removed ${p} (stale)\n`);
      for (const s of applied.skipped) say(`· kept ${s.path} — ${s.why}\n`);
    } catch (e) {
      if (isCoded(e, 'outside-project')) {
        io.err(`✗ ${e.message}\n  a path resolves outside the project (through a symlink?) — nothing was written.\n`);
        return EXIT.failed;
      }
      throw e;
    }
  }
  const unchanged = [...plan.write, ...plan.merge].filter((f) => !f.changed).length;
  return finish({ ...plan, unchanged, summary: compile.summarize(plan) }, dry, flags.strict === true, say, io);
}

/** What every compile prints last, from a fresh plan or from the record. */
interface Outcome extends Pick<
  CompilePlan,
  'warnings' | 'notes' | 'standing' | 'compiled' | 'targets' | 'failures' | 'withheld'
> {
  readonly explicitTargets: boolean;
  readonly unchanged: number;
  readonly summary: string;
}

function finish(plan: Outcome, dry: boolean, strict: boolean, say: (s: string) => void, io: CliIo): ExitCode {
  // One write for all of them: a large project has a note per skill.
  const lines = [...plan.warnings.map((w) => `⚠ ${w}\n`), ...plan.notes.map((n) => `ℹ ${n}\n`)];
  if (lines.length) say(lines.join(''));
  if (plan.compiled === 0 && plan.failures.length === 0 && plan.withheld.length === 0) {
    say('no skills installed — skillsmith install <source> to add one\n');
    return EXIT.ok;
  }
  if (plan.standing.length && plan.compiled > 0) {
    say(
      `standing per session: ${plan.standing.map((s) => `${s.target} ~${s.tokens} tok${s.loading === 'eager' ? ' (eager)' : ''}`).join(' · ')}\n`,
    );
  }
  say(
    `${dry ? '(dry run) would have ' : ''}${plan.summary}${plan.unchanged ? ` (${plural(plan.unchanged, 'file')} already up to date)` : ''}\n`,
  );
  if (plan.failures.length) {
    const n = plan.failures.length;
    io.err(
      `${plural(n, 'installed skill')} could not be loaded or compiled and ${n === 1 ? 'was' : 'were'} skipped — the others were written; their existing output is untouched. Fix the named file or reinstall.\n`,
    );
    return EXIT.failed;
  }
  if (plan.withheld.length) {
    const n = plan.withheld.length;
    io.err(
      `${plural(n, 'skill')} ${n === 1 ? 'was' : 'were'} not delivered: compile delivers only the bytes that were reviewed (pinned in kitbash.lock) and are free of blocking findings — ${dry ? 'what Skillsmith delivered of them earlier would be removed' : 'what Skillsmith delivered of them earlier was removed'}.\n`,
    );
    return EXIT.failed;
  }
  if (plan.targets.length < TARGET_IDS.length && !plan.explicitTargets) {
    const missing = TARGET_IDS.filter((id) => !plan.targets.includes(id));
    say(
      `  ${plural(missing.length, 'more target')} available — add ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''} under [project].targets in kitbash.toml, or create their agent dirs.\n`,
    );
  }
  if (strict && plan.warnings.length) {
    io.err(`--strict: failing on ${plural(plan.warnings.length, 'warning')}\n`);
    return EXIT.failed;
  }
  return EXIT.ok;
}
