import { CodedError, formatError } from '../../../shared/result';
import { enforcementCells, HELD_LABEL } from '../../../shared/targets/enforcement';
import { compatibilityMatrix } from '../../../shared/targets/matrix';
import { resolveTargets, TARGETS } from '../../../shared/targets/registry';
import { openDeliveryChecks } from '../../services/compile/checks-cache';
import { loadInstalled } from '../../services/compile/load';
import { diskProject } from '../../services/compile/project-files';
import { readProjectConfig } from '../../services/project/config';
import { enforceInAgent } from '../../../shared/project/config';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { escapeTerminal } from '../../../shared/terminal/escape';

const FLAGS = { json: { type: 'boolean' } } as const;

const GLYPH = { full: '✓', degraded: '⚠', unsupported: '✗' } as const;

/** `skillsmith matrix [--json]`: installed skills × all eleven targets (active ones marked). */
export function runMatrix(argv: readonly string[], io: CliIo): ExitCode {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length)
    throw new CodedError(
      'invalid-request',
      `unexpected argument "${positionals[0]}" — matrix covers every installed skill`,
    );
  const config = readProjectConfig(io.cwd);
  if (!config.ok) throw new Error(formatError(config.error));
  const project = diskProject(io.cwd);
  // Which skills compile withholds, from compile's checks kept by content (D281), as the app's Matrix
  // reads them (D284).
  const { skills, failures, withheld } = loadInstalled(
    io.cwd,
    undefined,
    undefined,
    config.value,
    openDeliveryChecks(),
  );
  const sel = resolveTargets(project, config.value.targets);
  const m = compatibilityMatrix(skills, TARGETS, project, sel.ok ? sel.value.targets : undefined, withheld);
  const active = sel.ok ? sel.value.targets.map((t) => t.id) : [];
  const enforcement = enforcementCells(TARGETS, enforceInAgent(config.value));
  if (flags.json) {
    io.out(
      `${JSON.stringify({ skills: m.skills, targets: m.targets, active, cells: m.cells, enforcement, failures }, null, 2)}\n`,
    );
    return failures.length ? EXIT.failed : EXIT.ok;
  }
  for (const f of failures) io.err(`✗ ${escapeTerminal(f.name)}: failed to load — ${f.message.split('\n')[0]}\n`);
  if (m.skills.length === 0) {
    io.out('no skills installed — nothing to tabulate.\n');
    return failures.length ? EXIT.failed : EXIT.ok;
  }
  const width = Math.max(5, ...m.skills.map((s) => s.length));
  const heads = m.targets.map((t, i) => `${active.includes(t) ? '*' : ' '}${String(i + 1).padStart(2)}`);
  io.out(`${''.padEnd(width)}  ${heads.join(' ')}\n`);
  for (const s of m.skills) {
    const row = m.targets.map((t) => `  ${GLYPH[m.cells.find((c) => c.skill === s && c.target === t)!.status]}`);
    io.out(`${s.padEnd(width)}  ${row.join(' ')}\n`);
  }
  io.out(
    `\n${m.targets.map((t, i) => `${String(i + 1).padStart(2)} ${t}${active.includes(t) ? ' (active)' : ''}`).join('\n')}\n`,
  );
  io.out('\n✓ full  ⚠ degraded  ✗ unsupported (the agent drops or ignores it)\n');
  for (const c of m.cells) {
    if (c.status === 'full') continue;
    io.out(`${GLYPH[c.status]} ${escapeTerminal(c.skill)} → ${c.target}: ${c.reasons.map((r) => r.code).join(', ')}\n`);
  }
  io.out("\nDeclared permissions when the agent runs a skill's scripts itself:\n");
  for (const t of m.targets) {
    const cells = enforcement.filter((c) => c.target === t);
    const by = (s: 'enforced' | 'advisory') => cells.filter((c) => c.status === s).map((c) => c.permission);
    const parts = (['enforced', 'advisory'] as const)
      .filter((s) => by(s).length)
      .map((s) => `${by(s).join(', ')} ${HELD_LABEL[s]}`);
    io.out(`  ${t}: ${parts.join('; ')}\n`);
  }
  return failures.length ? EXIT.failed : EXIT.ok;
}
