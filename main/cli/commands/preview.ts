import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CodedError, formatError } from '../../../shared/result';
import type { Skill } from '../../../shared/ksf/model';
import { parseSource } from '../../../shared/lock/source';
import { resolveTargets } from '../../../shared/targets/registry';
import { prepareSkill } from '../../../shared/targets/prepare';
import { standingCost } from '../../../shared/targets/cost';
import { readProjectConfig } from '../../services/project/config';
import { diskProject } from '../../services/compile/project-files';
import { reviewSource } from '../../services/install/preview';
import { resolveTarget } from '../../services/skills/locate';
import { parseCommandArgs } from '../args';
import { EXIT, type CliIo, type ExitCode } from '../io';
import { loadSkillArg } from './skill-arg';
import { escapeTerminal } from '../../../shared/terminal/escape';

const FLAGS = { json: { type: 'boolean' } } as const;

/**
 * `skillsmith preview <path|name|source> [--json]`: each target's output and cost; nothing
 * written. A git or GitHub source that is not on disk is staged in a private temp folder
 * and shown with the same review `install` would show, then its per-target output.
 */
export async function runPreview(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { positionals, flags } = parseCommandArgs(argv, FLAGS);
  if (positionals.length !== 1)
    throw new CodedError('invalid-request', 'usage: skillsmith preview <skill-name | path | file:source | git source>');
  const arg = positionals[0]!;
  if (!resolveTarget(arg, io.cwd).ok && isRemoteSource(arg, io.cwd)) {
    const staged = await reviewSource(io.cwd, arg);
    try {
      if (!flags.json) io.out(`${staged.text.trimEnd()}\n\n`);
      return previewSkill(staged.skill, io, flags.json ? { review: staged.review } : undefined);
    } finally {
      await staged.dispose();
    }
  }
  return previewSkill(loadSkillArg(arg, io.cwd), io, flags.json ? {} : undefined);
}

function isRemoteSource(arg: string, cwd: string): boolean {
  const parsed = parseSource(arg, (p) => existsSync(resolve(cwd, p)));
  return parsed.ok && parsed.value.kind !== 'local';
}

/** `json` is the extra top-level fields of the JSON document, or undefined for text output. */
function previewSkill(skill: Skill, io: CliIo, json: Record<string, unknown> | undefined): ExitCode {
  const prepared = prepareSkill(skill);
  if (!prepared.ok) {
    io.err(`✗ ${prepared.error.message}\n`);
    return EXIT.failed;
  }
  const config = readProjectConfig(io.cwd);
  if (!config.ok) throw new Error(formatError(config.error));
  const project = diskProject(io.cwd);
  const sel = resolveTargets(project, config.value.targets);
  if (!sel.ok) {
    io.err(`✗ ${sel.error.message}\n`);
    return EXIT.failed;
  }
  const p = prepared.value;
  // As compile writes them for this project's active targets (AGENTS.md may be an index).
  const context = { active: sel.value.targets };
  const rows = sel.value.targets.map((t) => {
    const out = t.emit(p, project, context);
    const cost = standingCost(p, t, project, context);
    return { t, out, cost };
  });
  if (json) {
    const text = (c: string | Uint8Array): string | { bytes: number } =>
      typeof c === 'string' ? c : { bytes: c.length };
    io.out(
      `${JSON.stringify(
        {
          ...json,
          skill: p.name,
          version: p.version,
          targets: rows.map(({ t, out, cost }) => ({
            target: t.id,
            loading: t.loading,
            standingTokens: cost.tokens,
            loadedTokens: cost.loadedTokens,
            warnings: out.warnings,
            notes: out.notes,
            files: out.files.map((f) => ({ path: f.path, content: text(f.content) })),
          })),
        },
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  io.out(`preview: ${escapeTerminal(p.name)}@${escapeTerminal(p.version)} (nothing is written)\n`);
  for (const { t, out, cost } of rows) {
    io.out(
      `\n─── ${t.id} [${t.loading}] ~${cost.tokens} tok standing (${cost.basis}) · ~${cost.loadedTokens} tok when loaded ───\n`,
    );
    for (const w of out.warnings) io.out(`⚠ ${w}\n`);
    for (const n of out.notes) io.out(`ℹ ${n}\n`);
    for (const f of out.files) {
      io.out(`\n  → ${escapeTerminal(f.path)}${f.merge ? ' (merged section)' : ''}\n\n`);
      io.out(
        typeof f.content === 'string'
          ? f.content.endsWith('\n')
            ? f.content
            : `${f.content}\n`
          : `  (copied file, ${f.content.length} bytes)\n`,
      );
    }
  }
  return EXIT.ok;
}
