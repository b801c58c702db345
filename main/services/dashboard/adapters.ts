import { plural } from '../../../shared/text/format';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CONFIG_FILE } from '../../../shared/project/config';
import { targetChoices } from '../../../shared/targets/choose';
import { diskProject } from '../compile/project-files';
import type { Problem, StatusCard, TargetInfo } from '../../../shared/ipc/channels/project';
import { listingReport, listingWarnings, prepareSkill, TARGETS } from '../../../shared/targets';
import { loadInstalled } from '../compile';
import { openDeliveryChecks } from '../compile/checks-cache';
import type { ProjectConfig } from '../../../shared/project/config';
import { projectStatus, type ProjectStatus } from '../workspace/status';
import { describeWithheld } from '../../../shared/compile/deliver';
import type { FolderReads } from '../skills/folder-reads';
import type { DashboardEngines, PinState, ScanEngines } from './engines';

/**
 * The dashboard's engines, wired to the workspace area's `projectStatus` (lock pins and
 * drift, policy violations, resolved and detected targets, per-target standing cost,
 * compiled-output drift) and the target registry (labels, loading). Computed once per scan.
 */
export const ENGINES: DashboardEngines = (root: string, config: ProjectConfig, reads?: FolderReads): ScanEngines => {
  let memo: ProjectStatus | undefined;
  const status = () => (memo ??= projectStatus(root, reads ? { reads } : {}));
  const byFolder = () => new Map(status().skills.map((s) => [basename(s.folder), s]));
  let folders: ReturnType<typeof byFolder> | undefined;
  const skill = (dir: string) => (folders ??= byFolder()).get(dir);

  return {
    targets() {
      const st = status();
      const active = new Set(st.targets);
      const detected = new Set(st.detectedTargets);
      const configured = new Set(config.targets ?? []);
      const problems: Problem[] = [];
      const unknown = [...configured].filter((id) => !TARGETS.some((t) => t.id === id));
      if (unknown.length)
        problems.push({
          severity: 'error',
          skill: null,
          source: 'targets',
          message: `unknown ${unknown.length === 1 ? 'target' : 'targets'} in kitbash.toml: ${unknown.join(', ')}`,
          file: 'kitbash.toml',
        });
      // Each active agent's skills listing at session start: what is cut or left out (issue 13).
      // Withheld skills are not in any agent's listing: compile does not deliver them (judged
      // from compile's delivery checks cache, D284).
      const installed = loadInstalled(root, undefined, reads, config, openDeliveryChecks());
      const held = new Set(installed.withheld.map((w) => w.name));
      const ready = installed.skills.flatMap((k) => {
        const p = held.has(k.manifest.skill.name) ? undefined : prepareSkill(k);
        return p?.ok ? [p.value] : [];
      });
      // Priced only before set-up, where the target picker shows it: every skill emitted for every target.
      const choices = existsSync(join(root, CONFIG_FILE))
        ? undefined
        : new Map(targetChoices(ready, diskProject(root)).map((c) => [c.id, c]));
      const targets: TargetInfo[] = TARGETS.map((t) => {
        const c = choices?.get(t.id);
        return {
          id: t.id,
          label: t.agent,
          detected: detected.has(t.id),
          configured: configured.has(t.id),
          active: active.has(t.id),
          loading: t.loading,
          setup: c ? { tokens: c.tokens, proposed: c.detected } : null,
        };
      });
      for (const t of TARGETS.filter((x) => active.has(x.id))) {
        const r = listingReport(ready, t);
        for (const message of r ? listingWarnings(r) : [])
          problems.push({ severity: 'warning', skill: null, source: 'targets', message });
      }
      return { targets, problems };
    },

    standing(dir, target) {
      // A skill compile does not deliver is resident in no agent's context.
      const k = skill(dir);
      if (k && status().withheld?.some((w) => w.name === k.name)) return 0;
      const cost = k?.targetCost?.find((c) => c.target === target.id);
      return cost ? cost.tokens : null;
    },

    lock() {
      const st = status();
      const perSkill = new Map<string, { state: PinState; source: string | null; signedBy: string | null }>();
      const problems: Problem[] = [];
      if (st.lockError) {
        problems.push({ severity: 'error', skill: null, source: 'lock', message: st.lockError, file: 'kitbash.lock' });
        return { card: { state: 'error', title: 'Lock', detail: st.lockError }, perSkill, problems };
      }
      let drift = 0;
      let unpinned = 0;
      for (const s of st.skills) {
        const dir = basename(s.folder);
        const state: PinState =
          s.lock === 'ok' ? 'locked' : s.lock === 'drift' ? 'drift' : s.pin ? 'drift' : 'unlocked';
        perSkill.set(dir, { state, source: s.pin?.source ?? null, signedBy: s.pin?.signedBy ?? null });
        if (state === 'drift') {
          drift++;
          problems.push({
            severity: 'error',
            skill: dir,
            source: 'lock',
            message: `${s.name}: integrity drift — installed files differ from kitbash.lock`,
          });
        } else if (state === 'unlocked') {
          unpinned++;
          if (st.lockPresent)
            problems.push({
              severity: 'warning',
              skill: dir,
              source: 'lock',
              message: `${s.name}: installed but not pinned in kitbash.lock`,
            });
        }
      }
      for (const e of st.missing)
        problems.push({
          severity: 'error',
          skill: null,
          source: 'lock',
          message: `${e.name}: pinned in kitbash.lock but not installed`,
          file: 'kitbash.lock',
        });
      const installed = st.skills.length;
      let card: StatusCard;
      if (!st.lockPresent) {
        card = installed
          ? { state: 'warn', title: 'Lock', detail: `no kitbash.lock — ${plural(installed, 'skill')} not pinned` }
          : { state: 'none', title: 'Lock', detail: 'no kitbash.lock (nothing installed)' };
      } else if (drift || st.missing.length) {
        card = {
          state: 'error',
          title: 'Lock',
          detail: [
            drift ? `${plural(drift, 'skill')} drifted` : '',
            st.missing.length ? `${st.missing.length} pinned but missing` : '',
          ]
            .filter(Boolean)
            .join(' · '),
        };
      } else if (unpinned) {
        card = { state: 'warn', title: 'Lock', detail: `${installed - unpinned} pinned · ${unpinned} not pinned` };
      } else {
        card = { state: 'ok', title: 'Lock', detail: `integrity ok · ${plural(installed, 'skill')} pinned` };
      }
      return { card, perSkill, problems };
    },

    policy() {
      const st = status();
      if (!st.policy)
        return { card: { state: 'none', title: 'Policy', detail: 'no [policy] in kitbash.toml' }, problems: [] };
      const dirOf = new Map(st.skills.map((s) => [s.name, basename(s.folder)]));
      const problems: Problem[] = st.policyViolations.map((v) => ({
        severity: 'error' as const,
        skill: dirOf.get(v.skill) ?? null,
        source: 'policy',
        message: v.message,
      }));
      const card: StatusCard = problems.length
        ? { state: 'error', title: 'Policy', detail: `${plural(problems.length, 'violation')} of [policy]` }
        : { state: 'ok', title: 'Policy', detail: 'every installed skill satisfies [policy]' };
      return { card, problems };
    },

    compiled() {
      const st = status();
      if (st.compileErrors?.length) {
        // Compile names the skill first ("<name>: …"); link the finding to it when it is installed.
        const dirOf = new Map(st.skills.map((s) => [s.name, basename(s.folder)]));
        const skillOf = (m: string) => dirOf.get(/^([a-z0-9][a-z0-9-]*): /.exec(m)?.[1] ?? '') ?? null;
        return {
          card: {
            state: 'error',
            title: 'Compiled output',
            detail:
              st.compileErrors.length === 1
                ? st.compileErrors[0]!
                : `compile refuses: ${plural(st.compileErrors.length, 'problem')}, first: ${st.compileErrors[0]}`,
          },
          problems: st.compileErrors.map((m) => ({
            severity: 'error' as const,
            skill: skillOf(m),
            source: 'compile',
            message: m,
          })),
        };
      }
      if (!st.compiledDrift)
        return {
          card: {
            state: 'unavailable',
            title: 'Compiled output',
            detail: 'not checked (kitbash.toml could not be read)',
          },
          problems: [],
        };
      const drift = st.compiledDrift;
      // A skill compile does not deliver is an error on its row, with the way forward, and on the card.
      const withheld = withheldOf(st);
      if (drift.length === 0)
        return withheld.card(
          { state: 'ok', title: 'Compiled output', detail: 'agent files match a fresh compile' },
          [],
        );
      const missing = drift.filter((d) => d.kind === 'missing');
      const changed = drift.filter((d) => d.kind !== 'missing');
      const problems: Problem[] = [];
      // Files compile has never written are one finding, not one per file.
      if (missing.length) {
        const sample = missing
          .slice(0, 3)
          .map((d) => d.path)
          .join(', ');
        problems.push({
          severity: 'warning',
          skill: null,
          source: 'compile',
          message: `${plural(missing.length, 'generated file')} not written yet (${sample}${missing.length > 3 ? ', …' : ''}) — Compile… on the dashboard writes them`,
        });
      }
      for (const d of changed.slice(0, 20)) {
        problems.push({
          severity: 'warning',
          skill: null,
          source: 'compile',
          message:
            d.kind === 'stale'
              ? `${d.path}: stale — compile would prune it`
              : `${d.path}: differs from what compile writes (edited by hand?)`,
          file: d.path,
        });
      }
      if (changed.length > 20)
        problems.push({
          severity: 'warning',
          skill: null,
          source: 'compile',
          message: `… and ${plural(changed.length - 20, 'more out-of-date file')}`,
        });
      const card: StatusCard =
        changed.length === 0
          ? {
              state: 'warn',
              title: 'Compiled output',
              detail: `not compiled yet — ${plural(missing.length, 'file')} to write`,
            }
          : {
              state: 'warn',
              title: 'Compiled output',
              detail: `${plural(changed.length, 'file')} out of date${missing.length ? `, ${missing.length} not written` : ''} — Compile… updates them`,
            };
      return withheld.card(card, problems);
    },
  };
};

/** The withheld skills of a status as dashboard problems, and the card that names them before anything else. */
function withheldOf(st: ProjectStatus) {
  const held = st.withheld ?? [];
  const dirOf = new Map(st.skills.map((s) => [s.name, basename(s.folder)]));
  const problems: Problem[] = held.map((w) => ({
    severity: 'error',
    skill: dirOf.get(w.name) ?? null,
    source: 'compile',
    message: describeWithheld(w),
  }));
  return {
    card(card: StatusCard, rest: Problem[]): { card: StatusCard; problems: Problem[] } {
      if (!held.length) return { card, problems: rest };
      const names = held.map((w) => w.name).join(', ');
      return {
        card: {
          state: 'error',
          title: 'Compiled output',
          detail: `${plural(held.length, 'skill')} not delivered (${names}) — not the reviewed bytes, or a blocking finding; ${card.detail}`,
        },
        problems: [...problems, ...rest],
      };
    },
  };
}
