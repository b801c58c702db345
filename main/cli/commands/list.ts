import { projectStatus } from '../../services/workspace/status';
import { parseCommandArgs } from '../args';
import type { CliIo, ExitCode } from '../io';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { EXIT } from '../io';

const FLAGS = { json: { type: 'boolean' } } as const;

/** `list [--json]`: installed skills, versions, costs, with the standing cost on every resolved target. */
export function runList(argv: readonly string[], io: CliIo): ExitCode {
  const { flags } = parseCommandArgs(argv, FLAGS);
  const status = projectStatus(io.cwd, { compiled: false });
  const skills = status.skills.filter((s) => s.version !== undefined);
  if (flags.json) {
    io.out(
      `${JSON.stringify(
        skills.map((s) => ({
          name: s.name,
          version: s.version,
          description: s.description,
          manifested: s.manifested,
          mode: s.mode,
          budget: s.budget,
          standing: s.standing,
          lock: s.lock,
          source: s.pin?.source ?? null,
          direct: s.pin ? s.pin.direct !== false : null,
          dependencies: s.dependencies,
          standingCost: s.targetCost,
        })),
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  if (!skills.length) {
    io.out('no skills installed — skillsmith install <source>\n');
    return EXIT.ok;
  }
  for (const s of skills) {
    io.out(
      `${escapeTerminal(s.name)}@${escapeTerminal(s.version ?? '')}  budget=${s.budget}tok  standing=${s.standing}tok/session  mode=${s.mode}${s.manifested ? '' : '  [unmanifested]'}  — ${escapeTerminal(s.description ?? '')}\n`,
    );
    if (s.targetCost?.length)
      io.out(`    standing cost: ${s.targetCost.map((c) => `${c.target} ~${c.tokens} tok`).join(' · ')}\n`);
    const deps = Object.entries(s.dependencies);
    if (deps.length) io.out(`    depends on: ${deps.map(([n, r]) => `${n}@${r}`).join(', ')}\n`);
    if (s.pin?.direct === false) io.out('    installed as a dependency\n');
  }
  for (const s of status.skills.filter((x) => x.version === undefined))
    io.err(`✗ ${escapeTerminal(s.folder)}: failed to load — ${(s.loadError ?? '').split('\n')[0]}\n`);
  return EXIT.ok;
}
