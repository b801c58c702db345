import { prepareSkill } from '../../../shared/targets/prepare';
import { matrixCell, notDelivered } from '../../../shared/targets/matrix';
import { withheldReason } from '../../../shared/compile/deliver';
import { EMPTY_CONFIG } from '../../../shared/project/config';
import { lockPins } from '../../services/compile/load';
import { treeIntegrityFast } from '../../services/lock/index';
import { readProjectConfig } from '../../services/project/config';
import { SKILLS_DIR } from '../../services/skills/locate';
import { standingCost } from '../../../shared/targets/cost';
import { targetById } from '../../../shared/targets/registry';
import { TARGET_IDS } from '../../../shared/targets/types';
import { diskProject } from '../../services/compile/project-files';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { loadSkillArg } from './skill-arg';
import { escapeTerminal } from '../../../shared/terminal/escape';
import { CodedError } from '../../../shared/result';

const FLAGS = { json: { type: 'boolean' } } as const;

/** `skillsmith explain <skill> <target> [--json]`: the matrix cell with its reasons, and the cost. */
export function runExplain(argv: readonly string[], io: CliIo): ExitCode {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length !== 2)
    throw new CodedError(
      'invalid-request',
      `usage: skillsmith explain <skill-name | path | file:source> <target>\n  targets: ${TARGET_IDS.join(', ')}`,
    );
  const target = targetById(positionals[1]!);
  if (!target)
    throw new CodedError('invalid-request', `unknown target "${positionals[1]}" — known: ${TARGET_IDS.join(', ')}`);
  const skill = loadSkillArg(positionals[0]!, io.cwd);
  const project = diskProject(io.cwd);
  const p = prepareSkill(skill);
  const graded = matrixCell(skill, p.ok ? p.value : undefined, target, project, {
    why: p.ok ? undefined : p.error.message,
  });
  // An installed skill is graded as the matrix grades it: not delivered when compile withholds it.
  const name = skill.manifest.skill.name;
  const config = readProjectConfig(io.cwd);
  const held =
    skill.tree.root === `${SKILLS_DIR.split('\\').join('/')}/${name}`
      ? withheldReason(skill, {
          pins: lockPins(io.cwd),
          integrityOf: (s) => treeIntegrityFast(s.tree),
          config: config.ok ? config.value : EMPTY_CONFIG,
        })
      : undefined;
  const cell = held ? notDelivered(graded, held) : graded;
  const cost = p.ok ? standingCost(p.value, target, project) : undefined;
  if (flags.json) {
    io.out(
      `${JSON.stringify({ ...cell, loading: target.loading, capabilities: target.capabilities, standingTokens: cost?.tokens ?? null, loadedTokens: cost?.loadedTokens ?? null }, null, 2)}\n`,
    );
    return EXIT.ok;
  }
  const mark = cell.status === 'full' ? '✓' : cell.status === 'degraded' ? '⚠' : '✗';
  io.out(`${mark} ${escapeTerminal(cell.skill)} → ${target.id}: ${cell.status}\n`);
  io.out(`  ${target.agent}; ${target.loading}; writes ${target.outputs.join(', ')}\n`);
  io.out(
    `  delivers: ${target.capabilities.length ? target.capabilities.join(', ') : 'no capabilities (instructions only)'}\n`,
  );
  for (const r of cell.reasons)
    io.out(
      `  ${cell.status === 'unsupported' && r.code !== 'missing-capability' && r.code !== 'eager-only' ? '✗' : '⚠'} ${r.code}: ${r.message}\n`,
    );
  if (cost)
    io.out(`  standing: ~${cost.tokens} tok every session (${cost.basis}); ~${cost.loadedTokens} tok when loaded\n`);
  io.out(`  format: ${target.vendorDoc.title}, checked ${target.vendorDoc.checked}\n`);
  return EXIT.ok;
}
