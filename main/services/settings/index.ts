import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SettingsData, SettingsPreview } from '../../../shared/ipc/channels/settings';
import { formatError, isCoded, ok, type Result, type SkillsmithError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import type { Skill } from '../../../shared/ksf/model';
import { decodeUtf8 } from '../../../shared/ksf/text';
import { isTable } from '../../../shared/ksf/toml';
import { IMPORT_SOURCE } from '../../../shared/lock/lockfile';
import { canonicalSource, parseSource } from '../../../shared/lock/source';
import { unifiedDiff } from '../../../shared/text/diff';
import { exceptionId, validateException } from '../../../shared/policy/exceptions';
import { manifestViolations, sourceViolations } from '../../../shared/policy/policy';
import { describeBlocking } from '../../../shared/policy/verdict';
import { CONFIG_FILE, parseProjectConfig, type ProjectConfig } from '../../../shared/project/config';
import { editProjectConfig, POLICY_KEYS, type ConfigEdit } from '../../../shared/project/edit';
import { TARGETS } from '../../../shared/targets/registry';
import { versionOf } from '../editor/files';
import { writeFileAtomic } from '../fs/atomic';
import { readLock, treeIntegrityFast } from '../lock/index';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { verdictOfSkill } from '../verdict/index';
import { confirmExceptions, withConfirmations } from '../policy/confirmations';
import { readProjectConfig } from '../project/config';
import { acquireProjectLock } from '../workspace/project-lock';

/** Largest kitbash.toml the view edits (the same bound as the config reader). */
const MAX_BYTES = 1024 * 1024;

/** Why a change is not written; `conflict`: the file changed since the view read it (reload, then retry). */
interface SettingsRefusal extends SkillsmithError {
  readonly conflict: boolean;
}

/** A refusal as the settings channels answer it: data for the view, not a transport error. */
type Refusal = { ok: false; conflict: boolean; message: string };

function refused(message: string, conflict = false): { ok: false; error: SettingsRefusal } {
  return { ok: false, error: { code: conflict ? 'forbidden' : 'invalid-input', conflict, message } };
}

const answer = ({ conflict, message }: SettingsRefusal): Refusal => ({ ok: false, conflict, message });

type Current = Result<{ text: string; version: string | null }, SettingsRefusal>;

/** The file as it is now; a missing file reads as empty text with version null. */
function readCurrent(root: string): Current {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, CONFIG_FILE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ok({ text: '', version: null });
    return refused(`${CONFIG_FILE}: cannot be read — nothing written`);
  }
  if (bytes.length > MAX_BYTES) return refused(`${CONFIG_FILE}: is larger than 1 MiB — edit it by hand`);
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return refused(`${CONFIG_FILE}: not valid UTF-8 — edit it by hand`);
  return ok({ text: decoded.value.text, version: versionOf(bytes) });
}

export function readSettings(root: string): SettingsData {
  const known = TARGETS.map((t) => ({ id: t.id, agent: t.agent }));
  const cur = readCurrent(root);
  if (!cur.ok)
    return { text: '', version: null, error: cur.error.message, targets: null, policy: null, exceptions: [], known };
  const { text, version } = cur.value;
  const parsed = parseProjectConfig(text);
  if (!parsed.ok)
    return {
      text,
      version,
      error: formatError(parsed.error).split('\n')[0]!,
      targets: null,
      policy: null,
      exceptions: [],
      known,
    };
  const raw = parsed.value.raw;
  const policyTable = isTable(raw.policy) ? raw.policy : undefined;
  const policy: Record<string, boolean | number | string[]> = {};
  for (const key of Object.keys(POLICY_KEYS)) {
    const v = policyTable?.[key];
    if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) policy[key] = v;
    else if (typeof v === 'bigint') policy[key] = Number(v);
    else if (Array.isArray(v)) policy[key] = v.filter((s): s is string => typeof s === 'string');
  }
  const list = policyTable && Array.isArray(policyTable.exceptions) ? policyTable.exceptions : [];
  const held = withConfirmations(root, parsed.value).unconfirmedExceptions ?? [];
  return {
    text,
    version,
    error: null,
    targets: parsed.value.targets ? [...parsed.value.targets] : null,
    policy: policyTable ? policy : null,
    exceptions: list.map((e, index) => {
      const v = validateException(e);
      return v.ok
        ? {
            index,
            entry: {
              skill: v.value.skill,
              check: v.value.check,
              file: v.value.file,
              line: v.value.line,
              by: v.value.by,
              reason: v.value.reason,
            },
            id: exceptionId(v.value),
            confirmed: !held.some((h) => exceptionId(h) === exceptionId(v.value)),
            problem: null,
          }
        : { index, entry: null, id: null, confirmed: false, problem: v.error.message };
    }),
    known,
  };
}

interface Loaded {
  readonly name: string;
  readonly skill: Skill;
  readonly integrity: string;
}

/** Why a skill is refused under `config`: policy violations (source and manifest), then blocking findings. */
function blockers(
  root: string,
  s: Loaded,
  config: ProjectConfig,
  sources: ReadonlyMap<string, { raw: string; resolved?: string }>,
): string[] {
  const out: string[] = [];
  const policy = config.policy;
  const pin = sources.get(s.name);
  if (policy && pin) {
    const parsed = parseSource(pin.raw, (p) => existsSync(resolve(root, p)));
    if (parsed.ok)
      out.push(
        ...sourceViolations(
          policy,
          pin.raw,
          pin.resolved ??
            canonicalSource(parsed.value, parsed.value.kind === 'local' ? resolve(root, parsed.value.path) : undefined),
        ),
      );
  }
  if (policy) out.push(...manifestViolations(policy, s.skill.manifest));
  out.push(...verdictOfSkill(s.skill, s.integrity, config).blocking.map((b) => describeBlocking(s.name, b)));
  return out;
}

function loadInstalled(root: string): Loaded[] {
  const out: Loaded[] = [];
  for (const loc of installedSkills(root)) {
    if (loc.kind !== 'folder') continue;
    const tree = readSkillTree(loc.abs, loc.display);
    if (!tree.ok) continue;
    const loaded = loadSkill(tree.value, { nameHint: loc.nameHint });
    if (loaded.ok)
      out.push({
        name: loaded.value.manifest.skill.name,
        skill: loaded.value,
        integrity: treeIntegrityFast(tree.value),
      });
  }
  return out;
}

/**
 * The installed skills whose refusal changes (or stays) between two configurations — the same checks install, run and
 * the dashboard apply.
 */
export function effectsOf(
  root: string,
  before: ProjectConfig,
  after: ProjectConfig,
): { skill: string; change: 'blocked' | 'unblocked' | 'still-blocked'; reasons: string[] }[] {
  const lock = readLock(root);
  const sources = new Map(
    (lock.ok ? lock.value.entries : [])
      .filter((e) => e.source !== IMPORT_SOURCE)
      .map((e) => [e.name, { raw: e.source, ...(e.resolved !== undefined ? { resolved: e.resolved } : {}) }] as const),
  );
  const out: { skill: string; change: 'blocked' | 'unblocked' | 'still-blocked'; reasons: string[] }[] = [];
  // An entry this user has not confirmed unblocks nothing, before or after the edit (spec D190).
  const [beforeHere, afterHere] = [withConfirmations(root, before), withConfirmations(root, after)];
  for (const s of loadInstalled(root)) {
    const was = blockers(root, s, beforeHere, sources);
    const now = blockers(root, s, afterHere, sources);
    if (was.length === 0 && now.length > 0) out.push({ skill: s.name, change: 'blocked', reasons: now });
    else if (was.length > 0 && now.length === 0) out.push({ skill: s.name, change: 'unblocked', reasons: was });
    else if (now.length > 0 && now.join('\n') !== was.join('\n'))
      out.push({ skill: s.name, change: 'still-blocked', reasons: now });
  }
  return out;
}

type Planned = Result<
  { before: string; after: string; configBefore: ProjectConfig; configAfter: ProjectConfig },
  SettingsRefusal
>;

function plan(cur: Current, version: string | null, edits: readonly ConfigEdit[]): Planned {
  if (!cur.ok) return cur;
  const { text } = cur.value;
  if (cur.value.version !== version)
    return refused(`${CONFIG_FILE} changed on disk since it was read — reload the settings; nothing written`, true);
  const edited = editProjectConfig(text, edits);
  if (!edited.ok) return refused(edited.error.message);
  const a = parseProjectConfig(text);
  const b = parseProjectConfig(edited.value);
  // editProjectConfig already re-parsed the result; both parse here by construction.
  if (!a.ok || !b.ok) return refused(`${CONFIG_FILE}: the change does not parse — nothing written`);
  return ok({ before: text, after: edited.value, configBefore: a.value, configAfter: b.value });
}

export function previewSettings(root: string, version: string | null, edits: readonly ConfigEdit[]): SettingsPreview {
  const p = plan(readCurrent(root), version, edits);
  if (!p.ok) return answer(p.error);
  const { before, after, configBefore, configAfter } = p.value;
  return {
    ok: true,
    text: after,
    diff: unifiedDiff(CONFIG_FILE, before, after),
    effects: effectsOf(root, configBefore, configAfter),
  };
}

/** Write the change under the project lock, only over the exact bytes the user previewed from. */
export function applySettings(
  root: string,
  version: string | null,
  edits: readonly ConfigEdit[],
): { ok: true; version: string } | Refusal {
  let release: () => void;
  try {
    release = acquireProjectLock(root, { command: 'settings (app)' });
  } catch (e) {
    if (isCoded(e, 'forbidden'))
      return { ok: false, conflict: false, message: `${e.message.split('\n')[0]} — nothing written` };
    throw e;
  }
  try {
    const p = plan(readCurrent(root), version, edits);
    if (!p.ok) return answer(p.error);
    writeFileAtomic(join(root, CONFIG_FILE), p.value.after);
    return { ok: true, version: versionOf(p.value.after) };
  } finally {
    release();
  }
}

/**
 * The user confirms one [[policy.exceptions]] entry the Settings view showed as arrived with
 * the project. Bound to the entry's id, so an entry edited since it was shown confirms nothing.
 */
export function confirmSettingsException(root: string, id: string): { ok: true } | Refusal {
  const config = readProjectConfig(root);
  if (!config.ok) return { ok: false, conflict: false, message: `${formatError(config.error)} — nothing confirmed` };
  try {
    confirmExceptions(root, config.value, { ids: [id] });
  } catch (e) {
    if (isCoded(e, 'invalid-request')) return { ok: false, conflict: true, message: e.message };
    throw e;
  }
  return { ok: true };
}
