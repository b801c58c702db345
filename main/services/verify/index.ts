/**
 * `skillsmith verify`: the project's installed skills against kitbash.lock, and the agents'
 * folders against what compile would write now (SPEC D202–D205). The reading, hashing and
 * compile plan are doctor's (`projectStatus`); this module only decides what each answer
 * means for a CI gate, as a pure function over that status.
 */
import { LOCK_FILE } from '../../../shared/lock/lockfile';
import { CONFIG_FILE } from '../../../shared/project/config';
import { describeWithheld } from '../../../shared/compile/deliver';
import { projectStatus, type ProjectStatus } from '../workspace/status';
import { folderReadsOnce } from '../skills/folder-reads';
import { plural } from '../../../shared/text/format';
import { join } from 'node:path';
import { readSigningPolicy, signatureVerdict } from '../../../shared/policy/signature';
import { formatError } from '../../../shared/result';
import { loadTrustedPublishers, verifyFolder } from '../signing/folder';
import { readProjectConfig } from '../project/config';

export const VERIFY_SCHEMA = 1;

/** Every kind of finding, in report order (SPEC D203). */
export const FINDING_KINDS = [
  'project-unreadable',
  'lock-unreadable',
  'lock-missing',
  'skill-broken',
  'skill-drift',
  'skill-unpinned',
  'pin-without-skill',
  'dependency-missing',
  'signature',
  'skill-withheld',
  'delivery-differs',
  'delivery-stale',
  'delivery-missing',
  'compile-unchecked',
  'interrupted',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface VerifyFinding {
  readonly kind: FindingKind;
  /** `error` fails the run; `warning` is reported and fails only under `--frozen`, where it is an error. */
  readonly level: 'error' | 'warning';
  /** Project-relative, `/`-separated: the skill folder, the agent file, or the project file at fault. */
  readonly path: string;
  readonly skill?: string;
  readonly message: string;
}

export interface VerifiedSkill {
  readonly name: string;
  readonly path: string;
  readonly version: string | null;
  /** The installed folder's tree integrity now (null: it could not be read). */
  readonly integrity: string | null;
  /** What kitbash.lock pins (null: not pinned). */
  readonly pinned: string | null;
  readonly state: 'ok' | 'drift' | 'unpinned' | 'broken';
}

export interface VerifyReport {
  readonly schema: typeof VERIFY_SCHEMA;
  readonly frozen: boolean;
  readonly ok: boolean;
  readonly skills: readonly VerifiedSkill[];
  readonly findings: readonly VerifyFinding[];
  readonly counts: { readonly errors: number; readonly warnings: number };
}

/** Read the project (never writing, never recovering) and judge it, signatures included. */
export function verifyProject(root: string, frozen: boolean): VerifyReport {
  const status = projectStatus(root, { costs: false, reads: folderReadsOnce() });
  const report = judgeStatus(status, frozen);
  const signed = signatureFindings(root, status, frozen);
  if (signed.length === 0) return report;
  const findings = [...report.findings, ...signed].sort(
    (a, b) => FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind),
  );
  const errors = findings.filter((f) => f.level === 'error').length;
  return { ...report, ok: errors === 0, findings, counts: { errors, warnings: findings.length - errors } };
}

/**
 * Each installed skill's signature checked again, as install checked it (SPEC D210–D213):
 * an invalid one fails, and so does anything not verified under `require_signed = true`;
 * `"warn"` reports it (an error under `--frozen`, as every warning is). A policy that does
 * not load fails once, naming kitbash.toml.
 */
function signatureFindings(root: string, s: ProjectStatus, frozen: boolean): VerifyFinding[] {
  const config = readProjectConfig(root);
  if (!config.ok) return [];
  const policy = readSigningPolicy(config.value.raw);
  const trusted = policy.ok ? loadTrustedPublishers(root, policy.value) : policy;
  if (!policy.ok || !trusted.ok) {
    const error = !policy.ok ? policy.error : !trusted.ok ? trusted.error : undefined;
    return [{ kind: 'signature', level: 'error', path: CONFIG_FILE, message: formatError(error!).split('\n')[0]! }];
  }
  const out: VerifyFinding[] = [];
  for (const k of s.skills) {
    const state = verifyFolder(join(root, k.folder), trusted.value);
    if (!state.ok) {
      out.push({ kind: 'signature', level: 'error', path: k.folder, skill: k.name, message: state.error.message });
      continue;
    }
    const v = signatureVerdict(state.value, policy.value, {
      skill: k.name,
      integrity: k.integrity ?? '',
      exceptions: config.value.exceptions,
      ...(config.value.unconfirmedExceptions ? { unconfirmed: config.value.unconfirmedExceptions } : {}),
    });
    if (v.block) out.push({ kind: 'signature', level: 'error', path: k.folder, skill: k.name, message: v.block });
    else if (v.warn)
      out.push({
        kind: 'signature',
        level: frozen ? 'error' : 'warning',
        path: k.folder,
        skill: k.name,
        message: v.warn,
      });
  }
  return out;
}

/** The decision: what in a project's status fails `verify` (and `verify --frozen`). */
export function judgeStatus(s: ProjectStatus, frozen: boolean): VerifyReport {
  const found: VerifyFinding[] = [];
  // What is pending rather than wrong: compile or recovery has not run yet. --frozen fails on it.
  const pending = frozen ? 'error' : 'warning';
  const add = (kind: FindingKind, level: VerifyFinding['level'], path: string, message: string, skill?: string) =>
    found.push({ kind, level, path, message, ...(skill === undefined ? {} : { skill }) });

  if (s.configError) add('project-unreadable', 'error', CONFIG_FILE, firstLine(s.configError));
  if (s.lockError) add('lock-unreadable', 'error', LOCK_FILE, firstLine(s.lockError));
  const lockMissing = !s.lockError && !s.lockPresent && s.skills.length > 0;
  if (lockMissing)
    add('lock-missing', 'error', LOCK_FILE, `${plural(s.skills.length, 'skill')} installed but nothing is pinned`);
  for (const k of s.skills) {
    if (k.version === undefined)
      add('skill-broken', 'error', k.folder, `does not load: ${firstLine(k.loadError ?? '')}`, k.name);
    if (k.lock === 'drift')
      add('skill-drift', 'error', k.folder, `files differ from the integrity pinned in ${LOCK_FILE}`, k.name);
    else if (k.lock === 'unpinned' && !lockMissing && !s.lockError)
      add('skill-unpinned', 'error', k.folder, `installed but not pinned in ${LOCK_FILE}`, k.name);
  }
  for (const m of s.missing)
    add('pin-without-skill', 'error', LOCK_FILE, `pins ${m.name}, which is not installed`, m.name);
  const installed = new Set(s.skills.map((k) => k.name));
  for (const k of s.skills)
    for (const dep of Object.keys(k.dependencies))
      if (!installed.has(dep))
        add('dependency-missing', 'error', k.folder, `depends on ${dep}, which is not installed`, k.name);
  // Drift is reported above; withholding is then its consequence, not a second finding.
  for (const w of s.withheld ?? [])
    if (w.reason !== 'drift' && w.reason !== 'unverified')
      // The path names the skill already; the description without its `<name>: ` lead.
      add('skill-withheld', pending, `.kitbash/skills/${w.name}`, describeWithheld(w).slice(w.name.length + 2), w.name);
  for (const d of s.compiledDrift ?? []) {
    if (d.kind === 'differs') add('delivery-differs', 'error', d.path, 'differs from what compile writes');
    else if (d.kind === 'stale') add('delivery-stale', 'error', d.path, 'compile would remove it');
    else add('delivery-missing', pending, d.path, 'not written yet — compile would create it');
  }
  if (s.compileErrors?.length)
    add('compile-unchecked', 'error', CONFIG_FILE, `delivered files not checked: ${firstLine(s.compileErrors[0]!)}`);
  if (s.interrupted)
    add('interrupted', pending, '.kitbash', `${plural(s.interrupted, 'interrupted change')} waiting for recovery`);

  const findings = found.sort((a, b) => FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind));
  const errors = findings.filter((f) => f.level === 'error').length;
  return {
    schema: VERIFY_SCHEMA,
    frozen,
    ok: errors === 0,
    skills: s.skills.map((k) => ({
      name: k.name,
      path: k.folder,
      version: k.version ?? null,
      integrity: k.integrity ?? null,
      pinned: k.pin?.integrity ?? null,
      state: k.lock,
    })),
    findings,
    counts: { errors, warnings: findings.length - errors },
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!;
}
