import { plural } from '../../../shared/text/format';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TARGETS } from '../../../shared/targets/registry';
import { LOCK_FILE } from '../../../shared/lock/lockfile';
import { withProjectLock } from '../../services/workspace/project-lock';
import { projectStatus } from '../../services/workspace/status';
import { recover } from '../../services/workspace/txn';
import { parseCommandArgs } from '../args';
import type { CliIo, ExitCode } from '../io';
import { describeWithheld } from '../../../shared/compile/deliver';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { EXIT } from '../io';

const FLAGS = { json: { type: 'boolean' } } as const;

/**
 * `doctor [--json]`: detected targets, standing cost, lock integrity drift, unpinned and
 * missing skills, the [policy] recheck, and compiled-output drift.
 */
export async function runDoctor(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { flags } = parseCommandArgs(argv, FLAGS);
  const recovered = existsSync(join(io.cwd, '.kitbash'))
    ? await withProjectLock(io.cwd, 'doctor', () => recover(io.cwd))
    : [];
  const s = projectStatus(io.cwd, { costs: false });
  if (flags.json) {
    io.out(`${JSON.stringify(s, null, 2)}\n`);
  }
  const out = flags.json ? io.err : io.out;
  for (const r of recovered) io.err(`note: ${r}\n`);
  if (s.configError) {
    io.err(`  ✗ ${s.configError.split('\n')[0]}\n`);
    return EXIT.failed;
  }
  if (s.lockError) {
    io.err(`  ✗ ${s.lockError.split('\n')[0]}\n`);
    return EXIT.failed;
  }
  out(`detected targets (${s.detectedTargets.length} of ${TARGETS.length} in this repo):\n`);
  for (const t of TARGETS)
    out(`  ${s.detectedTargets.includes(t.id) ? '✓' : '·'} ${t.id}${t.doctorNote ? ` (${t.doctorNote})` : ''}\n`);
  const loaded = s.skills.filter((k) => k.version !== undefined);
  out(`installed skills: ${loaded.length}\n`);
  out(
    `standing context cost: ~${s.standing.stubs} tokens (stubs); worst-case active: ${s.standing.budgets} tokens (budgets)\n`,
  );

  if (s.mcp.servers.length) {
    out(`\nMCP servers declared: ${s.mcp.servers.join(', ')}\n`);
    if (s.mcp.budgetLine) out(`  ${s.mcp.budgetLine}\n`);
    for (const line of s.mcp.matrix) out(`  ${line}\n`);
    for (const w of s.mcp.warnings) out(`  ⚠ ${w}\n`);
  }

  let problems = 0;
  for (const k of s.skills) {
    if (k.version === undefined) {
      io.err(`  ✗ ${escapeTerminal(k.folder)}: failed to load — ${(k.loadError ?? '').split('\n')[0]}\n`);
      problems++;
    }
  }
  if (s.skills.length && !s.lockPresent) {
    io.err(
      `  ✗ ${plural(s.skills.length, 'skill')} installed but ${LOCK_FILE} is missing — nothing is pinned. Reinstall to regenerate it.\n`,
    );
    return EXIT.failed;
  }
  for (const m of s.missing) out(`  ⚠ ${m.name}: in ${LOCK_FILE} but not installed\n`);
  for (const k of s.skills) {
    if (k.lock === 'drift') {
      io.err(`  ✗ ${k.name}: integrity drift — installed files differ from ${LOCK_FILE}\n`);
      problems++;
    } else if (k.lock === 'unpinned' && k.version !== undefined) {
      io.err(`  ✗ ${k.name}: installed but not pinned in ${LOCK_FILE} — reinstall to pin it.\n`);
      problems++;
    }
  }
  // Dependencies pinned but gone (a dependency removed by hand).
  const names = new Set(s.skills.map((k) => k.name));
  for (const k of s.skills) {
    for (const dep of Object.keys(k.dependencies)) {
      if (!names.has(dep)) {
        io.err(
          `  ✗ ${k.name}: depends on ${dep}, which is not installed — skillsmith update ${k.name} to resolve it again\n`,
        );
        problems++;
      }
    }
  }
  for (const v of s.policyViolations) io.err(`  ✗ policy: ${v.message}\n`);

  let compiled = 0;
  if (s.compileErrors?.length) {
    out(`  ⚠ compiled output not checked: ${s.compileErrors[0]}\n`);
  } else if (s.compiledDrift) {
    const missing = s.compiledDrift.filter((d) => d.kind === 'missing');
    const wrong = s.compiledDrift.filter((d) => d.kind !== 'missing');
    for (const d of wrong)
      io.err(
        `  ✗ compiled output drift: ${escapeTerminal(d.path)} — ${d.kind === 'stale' ? 'compile would remove it' : 'differs from what compile writes'}\n`,
      );
    if (missing.length)
      out(
        `  ⚠ ${plural(missing.length, 'generated file')} not written yet (e.g. ${missing[0]!.path}) — run skillsmith compile\n`,
      );
    compiled = wrong.length;
  }
  // Drift already fails above as an integrity problem; this says what compile does about it.
  for (const w of s.withheld ?? []) out(`  ⚠ compile: ${escapeTerminal(describeWithheld(w))}\n`);
  if (problems || s.policyViolations.length || compiled) {
    if (problems) io.err(`${plural(problems, 'integrity problem')} — reinstall or investigate\n`);
    if (s.policyViolations.length)
      io.err(`${plural(s.policyViolations.length, 'policy violation')} — see [policy] in kitbash.toml\n`);
    if (compiled)
      io.err(
        `${plural(compiled, 'generated file')} differ${compiled === 1 ? 's' : ''} from what compile writes — run skillsmith compile\n`,
      );
    return EXIT.failed;
  }
  out('lock integrity: ok\n');
  if (s.policy) out('policy: ok\n');
  if (s.compiledDrift && !s.compileErrors?.length && s.compiledDrift.length === 0) out('compiled output: in sync\n');
  return EXIT.ok;
}
