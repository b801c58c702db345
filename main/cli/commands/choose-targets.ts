import { fail, ok, type Result } from '../../../shared/result';
import {
  choiceLines,
  detectedAgents,
  noChoiceMessage,
  parseTargetList,
  targetChoices,
} from '../../../shared/targets/choose';
import { TARGET_IDS, type PreparedSkill, type TargetId } from '../../../shared/targets/types';
import { diskProject } from '../../services/compile/project-files';
import type { CliIo } from '../io';
import { ask, interactive } from './prompt';

/**
 * The targets a set-up writes into `[project].targets` (spec D220): `--targets`, else the
 * answer on a terminal, else the agents detected here (or whose files are `found`); with none
 * of these it refuses rather than fall back to AGENTS.md. Every choice is priced first.
 */
export async function chooseTargets(
  given: string | undefined,
  skills: readonly PreparedSkill[],
  io: CliIo,
  found: readonly string[] = [],
): Promise<Result<TargetId[]>> {
  const project = diskProject(io.cwd);
  // An instruction file being imported (CLAUDE.md, AGENTS.md) is evidence of its agent too.
  const seen = new Set<string>([...detectedAgents(project), ...found]);
  const detected = TARGET_IDS.filter((id) => seen.has(id));
  for (const line of choiceLines(targetChoices(skills, project), skills.length)) io.out(`${line}\n`);
  if (given !== undefined) return parseTargetList(given);
  if (interactive()) {
    const answer = await ask(`targets, comma-separated${detected.length ? ` [${detected.join(',')}]` : ''}: `);
    if (answer) return parseTargetList(answer, 'targets');
  }
  if (!detected.length) return fail('invalid-request', noChoiceMessage());
  io.out(`no --targets given: using the agents detected here: ${detected.join(', ')}\n`);
  return ok(detected);
}
