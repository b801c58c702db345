import { openLintCache } from '../../services/skills/cache';
import { reportsFromStamps } from '../../services/skills/warm';
import { installedSkills, resolveTarget, type SkillLocation } from '../../services/skills/locate';
import { renderHuman } from '../../../shared/lint/report/human';
import { renderJson } from '../../../shared/lint/report/json';
import { exitCodeFor, totals, type SkillReport } from '../../../shared/lint/report/model';
import { renderSarif } from '../../../shared/lint/report/sarif';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { VERSION } from '../version';
import { CodedError } from '../../../shared/result';
import { reportTarget, SARIF_REPORT, writeReport } from '../report-file';

const FLAGS = {
  lint: {
    strict: { type: 'boolean' },
    schema: { type: 'boolean' },
    json: { type: 'boolean' },
    sarif: { type: 'string' },
    'no-cache': { type: 'boolean' },
  },
  test: { strict: { type: 'boolean' }, json: { type: 'boolean' }, 'no-cache': { type: 'boolean' } },
} as const;

interface CheckFlags {
  strict?: boolean;
  schema?: boolean;
  json?: boolean;
  sarif?: string;
  'no-cache'?: boolean;
}

/**
 * `lint` and `test` share one pipeline: locate → read → load → check → render. `test`
 * adds the evals listing and reports itself as the static tier.
 */
export async function runCheck(kind: 'lint' | 'test', argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommandArgs(argv, FLAGS[kind]);
  const positionals = parsed.positionals;
  const flags: CheckFlags = parsed.flags;
  const { sarif } = flags;

  const sarifFile = sarif === undefined ? undefined : reportTarget(io.cwd, SARIF_REPORT, sarif);

  const locations = positionals.length ? positionals.map((p) => locate(p, io.cwd)) : installedSkills(io.cwd);
  if (locations.length === 0) {
    io.out(`no skills installed — nothing to ${kind} (pass a path to ${kind} an uninstalled skill).\n`);
    return EXIT.ok;
  }

  // Reports of unchanged skills come from the lint cache (SPEC.md D131) unless --no-cache.
  const cache = flags['no-cache'] ? undefined : openLintCache(io.cwd, (m) => io.err(`skillsmith ${kind}: ${m}\n`));
  const options = { schema: flags.schema === true, evals: kind === 'test' };
  // Unchanged folders answer from their stamps (D132); only if some do not is the lint
  // engine loaded at all — it is most of the bundle a warm lint would otherwise compile.
  const answered = cache ? reportsFromStamps(locations, options, cache) : [];
  let reports: SkillReport[];
  if (answered.length > 0 && answered.every((r) => r !== undefined)) {
    reports = answered;
    if (process.env.SKILLSMITH_TIMINGS === '1')
      io.err(
        `timings: lint ${locations.length} skills on 1 thread, ${locations.length} from the cache, 0 folders read\n`,
      );
  } else reports = (await import('../../services/skills/pool')).checkAll(locations, options, cache, answered);
  // Installed skills are reported in manifest-name order; explicit targets in the order given.
  if (positionals.length === 0) reports = [...reports].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const t = totals(reports);
  io.out(flags.json ? renderJson(reports) : renderHuman(reports, t, kind === 'lint' ? 'linted' : 'tested'));

  if (sarifFile !== undefined) {
    const text = renderSarif(reports, VERSION, (r, file) => (r.path === '.' ? file : `${r.path}/${file}`));
    if (!writeReport(io, kind, sarifFile, text, flags.json === true)) return EXIT.failed;
  }

  const code = exitCodeFor(t, flags.strict === true);
  if (code === EXIT.failed && t.failures === 0) io.err(`--strict: failing on ${t.warnings} warning(s)\n`);
  return code;
}

function locate(arg: string, cwd: string): SkillLocation {
  const r = resolveTarget(arg, cwd);
  if (!r.ok) throw CodedError.of(r.error);
  return r.value;
}
