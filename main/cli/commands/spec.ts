/**
 * `skillsmith spec validate|test|decide|explain|compile|imports <spec.yml>` — the SkillSpec
 * v0 engine on the command line, with the reference CLI's outputs and exit codes:
 * errors print `error: <message>` on stderr and exit 1; usage mistakes exit 2.
 */
import {
  compileSpec,
  SPEC_RENDERINGS,
  resolveSpecRendering,
  type SpecRendering,
} from '../../../shared/skillspec/compile';
import { decideWithEvents, type Decision } from '../../../shared/skillspec/decide';
import { checkDependencies } from '../../../shared/skillspec/deps';
import { SpecError } from '../../../shared/skillspec/errors';
import { formatTestRun, runScenarioTests } from '../../../shared/skillspec/scenario';
import { TRACE_REQUIRED_MESSAGE } from '../../../shared/skillspec/trace';
import { nodeDepsHost } from '../../services/skillspec/deps';
import { importReport, loadSpec } from '../../services/skillspec/load';
import { writeDecisionTrace } from '../../services/skillspec/trace';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { CodedError } from '../../../shared/result';

const FLAGS = {
  input: { type: 'string' },
  json: { type: 'boolean' },
  'trace-dir': { type: 'string' },
  target: { type: 'string' },
  name: { type: 'string' },
  command: { type: 'string' },
} as const;

const VERBS = ['validate', 'test', 'decide', 'explain', 'compile', 'imports', 'deps'] as const;
type Verb = (typeof VERBS)[number];

export function runSpec(argv: readonly string[], io: CliIo): ExitCode {
  const [verb, ...rest] = argv;
  if (verb === undefined || !(VERBS as readonly string[]).includes(verb)) {
    throw new CodedError(
      'invalid-request',
      verb === undefined ? `name a verb: ${VERBS.join(', ')}` : `unknown verb "${verb}" (expected ${VERBS.join(', ')})`,
    );
  }
  const { positionals, flags } = parseCommandArgs(rest, FLAGS);
  if (positionals.length !== 1)
    throw new CodedError('invalid-request', `${verb} takes exactly one spec path (got ${positionals.length})`);
  const path = positionals[0]!;
  const needsInput = verb === 'decide' || verb === 'explain';
  if (needsInput && flags.input === undefined) throw new CodedError('invalid-request', `${verb} needs --input TEXT`);
  if (!needsInput && flags.input !== undefined)
    throw new CodedError('invalid-request', `--input is only for decide and explain`);
  if (flags['trace-dir'] !== undefined && !needsInput)
    throw new CodedError('invalid-request', `--trace-dir is only for decide and explain`);
  const target = flags.target === undefined ? undefined : resolveSpecRendering(flags.target);
  if (flags.target !== undefined && verb !== 'compile')
    throw new CodedError('invalid-request', '--target is only for compile');
  if (flags.target !== undefined && !target)
    throw new CodedError(
      'invalid-request',
      `unknown target "${flags.target}" (expected ${SPEC_RENDERINGS.join(', ')})`,
    );
  if (flags.name !== undefined && verb !== 'compile')
    throw new CodedError('invalid-request', '--name is only for compile');
  if (flags.command !== undefined && verb !== 'deps')
    throw new CodedError('invalid-request', '--command is only for deps');

  try {
    return dispatch(verb as Verb, path, { ...flags, target }, io);
  } catch (e) {
    if (e instanceof SpecError) {
      if (flags.json && verb === 'validate')
        io.out(`${JSON.stringify({ ok: false, path, kind: e.kind, error: e.message }, null, 2)}\n`);
      io.err(`error: ${e.message}\n`);
      return EXIT.failed;
    }
    throw e;
  }
}

interface Flags {
  input?: string;
  json?: boolean;
  'trace-dir'?: string;
  /** `--target`: which SkillSpec rendering, not an agent. */
  target?: SpecRendering;
  name?: string;
  command?: string;
}

function dispatch(verb: Verb, path: string, flags: Flags, io: CliIo): ExitCode {
  if (verb === 'imports') {
    const report = importReport(path, io.cwd);
    io.out(`${JSON.stringify(report, null, 2)}\n`);
    return report.ok ? EXIT.ok : EXIT.failed;
  }
  const { spec } = loadSpec(path, { cwd: io.cwd });
  switch (verb) {
    case 'deps': {
      const report = checkDependencies(spec, nodeDepsHost(path, io.cwd), flags.command);
      io.out(`${JSON.stringify(report, null, 2)}\n`);
      return report.ok ? EXIT.ok : EXIT.failed;
    }
    case 'validate':
      io.out(
        flags.json
          ? `${JSON.stringify({ ok: true, path, id: spec.id, schema: spec.schema }, null, 2)}\n`
          : `ok: ${path} is ${spec.id} (${spec.schema})\n`,
      );
      return EXIT.ok;
    case 'test': {
      const run = runScenarioTests(spec);
      if (flags.json) {
        io.out(
          `${JSON.stringify(
            {
              total: run.total,
              passed: run.passed.length,
              failed: run.failed.map((r) => ({ name: r.name, input: r.input, failures: r.failures })),
            },
            null,
            2,
          )}\n`,
        );
      } else io.out(formatTestRun(run));
      return run.failed.length ? EXIT.failed : EXIT.ok;
    }
    case 'compile':
      io.out(compileSpec(spec, flags.target ?? 'markdown', flags.name));
      return EXIT.ok;
    case 'decide':
    case 'explain': {
      const traceDir = flags['trace-dir'];
      if (spec.trace?.required && traceDir === undefined) throw new SpecError('invalid_input', TRACE_REQUIRED_MESSAGE);
      const decided = decideWithEvents(spec, flags.input!);
      if (traceDir !== undefined) {
        const t = writeDecisionTrace(traceDir, path, spec, decided, { cwd: io.cwd });
        io.err(
          `trace: wrote ${t.event_count} event(s) to ${t.run_dir}\ntrace: jsonl ${t.trace_jsonl}\ntrace: summary ${t.summary_json}\n`,
        );
      }
      io.out(
        verb === 'decide' || flags.json
          ? `${JSON.stringify(decided.decision, null, 2)}\n`
          : explainText(decided.decision),
      );
      return EXIT.ok;
    }
  }
}

/** `explain`: the decision as a few readable lines. */
export function explainText(d: Decision): string {
  const lines = [`input: ${d.input}`, `route: ${d.route ?? '<none>'}`];
  if (d.route_order.length) lines.push(`route_order: ${d.route_order.join(' -> ')}`);
  if (d.forbid.length) lines.push(`forbid: ${d.forbid.join(', ')}`);
  if (d.elicit.length) lines.push(`elicit: ${d.elicit.join(', ')}`);
  if (d.after_success.length) lines.push(`after_success: ${d.after_success.join(', ')}`);
  if (d.matched_rules.length) {
    lines.push('matched_rules:');
    for (const m of d.matched_rules) lines.push(m.reason !== null ? `  - ${m.id}: ${m.reason}` : `  - ${m.id}`);
  }
  return `${lines.join('\n')}\n`;
}
