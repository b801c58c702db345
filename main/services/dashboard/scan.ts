import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { formatError } from '../../../shared/result';
import type { Skill } from '../../../shared/ksf/model';
import { standingStub } from '../../../shared/ksf/stub';
import { estimateTokens } from '../../../shared/ksf/tokens';
import { resolveBody } from '../../../shared/lint/rules/body';
import { skillVerdict } from '../../../shared/policy/verdict';
import { unconfirmedNote } from '../../../shared/policy/exceptions';
import { CONFIG_FILE, EMPTY_CONFIG } from '../../../shared/project/config';
import type { Dashboard, Problem, SkillRow } from '../../../shared/ipc/channels/project';
import { readProjectConfig } from '../project/config';
import { installedSkills, type SkillLocation } from '../skills/locate';
import { openLintCache } from '../skills/cache';
import { checkAll } from '../skills/pool';
import { folderReadsOnce, type FolderReads } from '../skills/folder-reads';
import { ENGINES } from './adapters';
import type { DashboardEngines } from './engines';

/**
 * One pass over a project for the dashboard: configuration, installed skills (loaded and
 * linted with the same functions as `skillsmith lint`), targets, standing costs and the
 * status cards. Read-only.
 */
export function scanProject(root: string, makeEngines: DashboardEngines = ENGINES): Dashboard {
  const started = performance.now();
  const problems: Problem[] = [];

  const configRead = readProjectConfig(root);
  const config = configRead.ok ? configRead.value : EMPTY_CONFIG;
  const configError = configRead.ok ? null : formatError(configRead.error);
  if (configError)
    problems.push({
      severity: 'error',
      skill: null,
      source: 'kitbash.toml',
      message: configError,
      file: 'kitbash.toml',
      ...(configRead.ok ? {} : lineOf(configRead.error.line)),
    });

  const locations = installedSkills(root);
  const cache = openLintCache(root, (m) => process.stderr.write(`skillsmith: ${m}\n`));
  const reports = checkAll(locations, { schema: false, evals: false }, cache);
  // Each folder is read once for the rows, the project status and the listing alike.
  const reads = folderReadsOnce();
  const engines = makeEngines(root, config, reads);
  const { targets, problems: targetProblems } = engines.targets();
  problems.push(...targetProblems);
  const active = targets.filter((t) => t.active);
  const lock = engines.lock();

  for (const p of config.exceptionProblems)
    problems.push({ severity: 'warning', skill: null, source: 'kitbash.toml', message: p, file: 'kitbash.toml' });

  const skills: SkillRow[] = locations.map((location, i) => {
    const report = reports[i]!;
    const loaded = loadFor(location, reads);
    // The same computation as the review, `run` and the Runs tab (shared/policy/verdict).
    const verdict = skillVerdict(report.checks, {
      skill: report.name,
      integrity: loaded?.integrity ?? '',
      ...(config.policy ? { policy: config.policy } : {}),
      exceptions: config.exceptions,
      ...(config.unconfirmedExceptions ? { unconfirmed: config.unconfirmedExceptions } : {}),
    });
    for (const c of report.checks) {
      if (c.status === 'pass') continue;
      const at = c.locations?.[0];
      const accepted =
        c.status === 'fail' && !verdict.blocking.some((b) => b.id === c.id)
          ? verdict.accepted.filter((a) => a.id === c.id)
          : [];
      const held = verdict.blocking.find((b) => b.id === c.id)?.unconfirmed?.[0];
      problems.push({
        severity: c.status === 'fail' && accepted.length === 0 ? 'error' : 'warning',
        skill: location.nameHint,
        source: c.id,
        message: accepted.length
          ? `${c.detail ?? c.id} — accepted by exception for this exact version (${accepted.map((a) => `${a.file}:${a.line} by ${a.by}: ${a.reason}`).join('; ')})`
          : `${c.detail ?? c.id}${held ? `; ${unconfirmedNote(held)}` : ''}`,
        ...(at ? { file: `${location.display}/${at.file}`, line: at.line } : {}),
      });
    }
    const { failures, warnings } = verdict;
    const pin = lock.perSkill.get(location.nameHint);
    const m = loaded?.skill.manifest;
    const standing: Record<string, number | null> = {};
    for (const t of active) standing[t.id] = loaded ? engines.standing(location.nameHint, t) : null;
    return {
      dir: location.nameHint,
      name: report.name,
      version: report.version,
      description: m?.skill.description ?? '',
      source: pin?.source ?? null,
      manifested: report.manifested,
      loaded: loaded !== undefined,
      budget: m?.context.budget ?? null,
      standingLimit: m?.context.standing ?? null,
      bodyTokens: loaded?.tokens.body ?? null,
      stubTokens: loaded?.tokens.stub ?? null,
      standing,
      lint: {
        status: verdict.status,
        failures,
        warnings,
        blocking: verdict.blocking.length,
        accepted: verdict.accepted.length,
      },
      lock: pin?.state ?? 'unknown',
      signedBy: pin?.signedBy ?? null,
      mode: m?.targets.mode ?? null,
      disclosure: m?.context.disclosure ?? null,
      permissions: {
        tools: [...(m?.permissions.tools ?? [])],
        network: m?.permissions.network ?? false,
        write: m?.permissions.write ?? false,
      },
    } satisfies SkillRow;
  });

  const policy = engines.policy();
  const compiled = engines.compiled();
  problems.push(...lock.problems, ...policy.problems, ...compiled.problems);
  problems.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));

  const totals = { skills: skills.length, failures: 0, warnings: 0 };
  for (const r of skills) {
    totals.failures += r.lint.failures;
    totals.warnings += r.lint.warnings;
  }

  return {
    project: { root, name: basename(root) },
    scannedAt: new Date().toISOString(),
    scanMs: Math.round(performance.now() - started),
    configError,
    hasConfig: existsSync(join(root, CONFIG_FILE)),
    targets,
    skills,
    totals,
    standingByTarget: active.map((t) => {
      const values = skills.map((s) => s.standing[t.id]);
      const known = values.every((v) => typeof v === 'number');
      return {
        target: t.id,
        label: t.label,
        loading: t.loading,
        tokens: known ? values.reduce<number>((a, v) => a + (v ?? 0), 0) : null,
      };
    }),
    lock: lock.card,
    policy: policy.card,
    compiled: compiled.card,
    problems,
  };
}

function lineOf(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}

/** The loaded skill and its token counts, or undefined when it does not load (lint reports why). */
function loadFor(
  location: SkillLocation,
  reads: FolderReads,
): { skill: Skill; integrity: string; tokens: { body: number; stub: number } } | undefined {
  if (location.kind !== 'folder') return undefined;
  const tree = reads.tree(location.abs, location.display);
  if (!tree.ok) return undefined;
  const loaded = reads.skill(tree.value, location.nameHint);
  if (!loaded.ok) return undefined;
  const resolved = resolveBody(loaded.value);
  const body = resolved.ok ? resolved.value.text : loaded.value.body;
  return {
    skill: loaded.value,
    integrity: reads.integrity(tree.value),
    tokens: { body: estimateTokens(body), stub: estimateTokens(standingStub(body)) },
  };
}
