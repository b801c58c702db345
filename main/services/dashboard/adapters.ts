import { join } from 'node:path';
import { formatLoadError } from '../../../shared/ksf/errors';
import type { Problem, StatusCard, TargetInfo } from '../../../shared/ipc/channels/project';
import { resolveTargets, standingCostOf, targetById, TARGETS } from '../../../shared/targets';
import type { ProjectConfig } from '../../../shared/project/config';
import { readLock, skillIntegrity } from '../lock';
import { SKILLS_DIR } from '../skills/locate';
import { diskProjectView } from './disk-view';
import type { DashboardEngines, PinState, ScanEngines } from './engines';

/**
 * The engines wired to the other areas' code: targets and standing cost from
 * shared/targets, pins from main/services/lock. Policy and compile drift are reported
 * as not available until their engines land.
 */
export const ENGINES: DashboardEngines = (root: string, config: ProjectConfig): ScanEngines => {
  const view = diskProjectView(root);
  return {
    targets() {
      const problems: Problem[] = [];
      let selection = resolveTargets(view, config.targets);
      if (!selection.ok) {
        problems.push({ severity: 'error', skill: null, source: 'targets', message: selection.message, file: 'kitbash.toml' });
        selection = resolveTargets(view, undefined);
      }
      const active = new Set(selection.ok ? selection.targets.map((t) => t.id) : []);
      const configured = new Set(config.targets ?? []);
      const targets: TargetInfo[] = TARGETS.map((t) => ({
        id: t.id,
        label: t.agent,
        detected: t.detect(view),
        configured: configured.has(t.id),
        active: active.has(t.id),
        loading: t.loading,
      }));
      return { targets, problems };
    },
    standing(skill, target) {
      const def = targetById(target.id);
      if (!def) return null;
      const cost = standingCostOf(skill, def, view);
      return 'error' in cost ? null : cost.tokens;
    },
    lock(installed) {
      const perSkill = new Map<string, { state: PinState; source: string | null }>();
      const problems: Problem[] = [];
      const lock = readLock(root);
      if (!lock.ok) {
        const message = formatLoadError(lock.error);
        problems.push({ severity: 'error', skill: null, source: 'lock', message, file: 'kitbash.lock' });
        return { card: { state: 'error', title: 'Lock', detail: message }, perSkill, problems };
      }
      if (!lock.value.present) {
        for (const name of installed) perSkill.set(name, { state: 'unlocked', source: null });
        const card: StatusCard = installed.length
          ? { state: 'warn', title: 'Lock', detail: `no kitbash.lock — ${installed.length} skill(s) not pinned` }
          : { state: 'none', title: 'Lock', detail: 'no kitbash.lock (nothing installed)' };
        return { card, perSkill, problems };
      }
      const entries = new Map(lock.value.entries.map((e) => [e.name, e]));
      let drift = 0;
      let unpinned = 0;
      for (const name of installed) {
        const entry = entries.get(name);
        if (!entry) {
          unpinned++;
          perSkill.set(name, { state: 'unlocked', source: null });
          problems.push({ severity: 'warning', skill: name, source: 'lock', message: `${name}: installed but not pinned in kitbash.lock` });
          continue;
        }
        const hash = skillIntegrity(join(root, SKILLS_DIR, name));
        const state: PinState = hash.ok && hash.value === entry.integrity ? 'locked' : 'drift';
        if (state === 'drift') {
          drift++;
          problems.push({ severity: 'error', skill: name, source: 'lock', message: `${name}: integrity drift — installed files differ from kitbash.lock` });
        }
        perSkill.set(name, { state, source: entry.source });
      }
      const missing = lock.value.entries.filter((e) => !installed.includes(e.name));
      for (const e of missing) problems.push({ severity: 'error', skill: null, source: 'lock', message: `${e.name}: in kitbash.lock but not installed` });
      const pinned = installed.length - unpinned;
      const card: StatusCard =
        drift || missing.length
          ? { state: 'error', title: 'Lock', detail: [drift ? `${drift} skill(s) drifted` : '', missing.length ? `${missing.length} pinned but missing` : ''].filter(Boolean).join(' · ') }
          : unpinned
            ? { state: 'warn', title: 'Lock', detail: `${pinned} pinned · ${unpinned} not pinned` }
            : { state: 'ok', title: 'Lock', detail: `integrity ok · ${pinned} skill(s) pinned` };
      return { card, perSkill, problems };
    },
    policy(_skills) {
      return {
        card: config.policy
          ? { state: 'unavailable', title: 'Policy', detail: '[policy] is set; its evaluation is not in this build yet' }
          : { state: 'none', title: 'Policy', detail: 'no [policy] in kitbash.toml' },
        problems: [],
      };
    },
    compiled() {
      return { card: { state: 'unavailable', title: 'Compiled output', detail: 'compile drift is not in this build yet' }, problems: [] };
    },
  };
};
