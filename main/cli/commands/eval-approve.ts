import { grantSummary, notApprovedMessage, type PendingApproval } from '../../../shared/evals/consent';
import { APPROVALS_FILE, approveRunner, recordApproval, RunnerNotApproved } from '../../services/evals/approvals';
import { configDir } from '../../services/user/config-dir';
import { planEvals, type EvalRequest } from '../../services/evals/run';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { confirm, interactive } from './prompt';
import { join } from 'node:path';

/**
 * `skillsmith eval --approve-runner ID`: the explicit approval of a runner as defined now.
 * It prints exactly what is approved, so the user approves what they read. `--yes` never
 * stands in for it: an approval is about what an agent may reach, not about one install.
 */
export function approveRunnerCommand(id: string, io: CliIo): ExitCode {
  const grant = approveRunner(io.cwd, id);
  io.out(
    `approved runner ${id} in ${io.cwd}:\n${grantSummary(grant)
      .map((l) => `  ${l}\n`)
      .join('')}recorded in ${join(configDir(), APPROVALS_FILE)}; any change to it asks again\n`,
  );
  return EXIT.ok;
}

function describePending(p: PendingApproval): string {
  const head = p.changes.length
    ? `runner ${p.grant.id} changed since you approved it:\n${p.changes.map((c) => `  ${c}\n`).join('')}now it would run with:\n`
    : `runner ${p.grant.id} has not been approved in this project; it would run with:\n`;
  return `${head}${grantSummary(p.grant)
    .map((l) => `  ${l}\n`)
    .join('')}`;
}

/**
 * Before an eval run: every runner it will use must be approved. In a terminal, ask for each
 * one (y/N) showing what it may do; otherwise refuse with the command that approves it.
 * Returns the exit code when the run must not start.
 */
export async function approveRunnersFirst(req: EvalRequest, io: CliIo): Promise<ExitCode | undefined> {
  try {
    planEvals(req);
    return undefined;
  } catch (e) {
    // Any other refusal is the run's own to report, as it would without this check.
    if (!(e instanceof RunnerNotApproved)) return undefined;
    if (!interactive()) {
      for (const p of e.pending) io.err(`skillsmith eval: ${notApprovedMessage(p)}\n`);
      return EXIT.usage;
    }
    for (const p of e.pending) {
      io.err(describePending(p));
      if (!(await confirm(`approve runner ${p.grant.id}? [y/N] `))) {
        io.err(`skillsmith eval: runner ${p.grant.id} not approved — nothing ran\n`);
        return EXIT.failed;
      }
      recordApproval(req.projectRoot, p.grant);
    }
    return undefined;
  }
}
