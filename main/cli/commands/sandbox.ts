import { probeReport, currentHost, type ProbeReport } from '../../services/sandbox/probe';
import { unenforced } from '../../services/sandbox/policy';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { CodedError } from '../../../shared/result';

/**
 * `skillsmith sandbox probe [--json]`: the backend on this machine and every restriction's label. Exit 1 when runs
 * would be refused.
 */
export async function runSandbox(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, { json: { type: 'boolean' } } as const);
  if (positionals[0] !== 'probe' || positionals.length > 1) {
    throw new CodedError(
      'invalid-request',
      positionals.length === 0
        ? 'expected a subcommand: probe [--json]'
        : `unknown subcommand "${positionals.join(' ')}" (expected: probe [--json])`,
    );
  }
  const report = await probeReport(currentHost(), { fresh: true, granted: true });
  const refused = unenforced(report.rows).length > 0;
  io.out(flags.json ? renderProbeJson(report, refused) : renderProbe(report, refused));
  return refused ? EXIT.failed : EXIT.ok;
}

export function renderProbeJson(r: ProbeReport, refused: boolean): string {
  const s = r.status;
  return (
    JSON.stringify(
      {
        platform: r.platform,
        backend: s.backend,
        works: s.works,
        ...(s.path ? { path: s.path } : {}),
        ...(s.version ? { version: s.version } : {}),
        ...(s.reason ? { reason: s.reason } : {}),
        ...(s.detail ? { detail: s.detail } : {}),
        runsAllowed: !refused,
        restrictions: r.rows.map((row) => ({ id: row.id, label: row.label, required: row.required, what: row.what })),
        granted: (r.granted ?? []).map((row) => ({
          id: row.id,
          label: row.label,
          required: row.required,
          what: row.what,
        })),
        ...(s.netns ? { networkNamespace: s.netns } : {}),
      },
      null,
      2,
    ) + '\n'
  );
}

export function renderProbe(r: ProbeReport, refused: boolean): string {
  const s = r.status;
  const name = `${s.backend}${s.version ? ` ${s.version}` : ''}${s.path ? ` (${s.path})` : ''}`;
  const lines = [
    s.works
      ? `sandbox: ${name} — works here (a trivial sandboxed command ran)`
      : `sandbox: ${name} — not usable here: ${s.reason ?? 'unknown reason'}`,
  ];
  if (s.detail) lines.push(`  it said: ${s.detail}`);
  lines.push('');
  const width = Math.max(...r.rows.map((row) => row.id.length));
  const lw = Math.max(...r.rows.map((row) => row.label.length));
  for (const row of r.rows) lines.push(`  ${row.id.padEnd(width)}  ${row.label.padEnd(lw)}  ${row.what}`);
  lines.push('', 'for a skill granted network = true and write = true:');
  for (const row of r.granted ?? []) lines.push(`  ${row.id.padEnd(width)}  ${row.label.padEnd(lw)}  ${row.what}`);
  if (s.netns && !s.netns.works)
    lines.push(`  (a skill with network = true is refused here: ${s.netns.reason ?? 'no network namespace'})`);
  lines.push('');
  lines.push(
    refused
      ? `runs are refused here (fail closed): ${unenforced(r.rows)
          .map((row) => row.id)
          .join(', ')} cannot be enforced. "--unconfined" runs one script once without them, after showing what runs.`
      : 'runs go ahead here; a restriction labelled advisory is disclosed, not enforced.',
  );
  return lines.join('\n') + '\n';
}
