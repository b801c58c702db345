/**
 * The IPC contract's surface. The snapshot changes whenever a channel or event stream is
 * added, removed or renamed — so every change to what the renderer can ask of main shows
 * up in review. The exhaustiveness checks prove each channel has a main-side handler and
 * a preload method, and that both transports expose exactly the contract.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRACT, EVENTS, listChannels } from '../../shared/ipc/contract';
import { HANDLERS } from '../../main/ipc/table';
import { buildBridge } from '../../preload/bridge';
import { createApi } from '../../shared/ipc/client';

describe('IPC contract surface', () => {
  it('matches the reviewed surface (update the snapshot only with a security review of the change)', () => {
    const surface = {
      channels: listChannels().map((c) => `${c.name} — ${c.def.summary}`),
      events: Object.entries(EVENTS).map(([name, e]) => `${name} — ${e.summary}`),
    };
    expect(surface).toMatchInlineSnapshot(`
      {
        "channels": [
          "app.info — version, platform capabilities and the bundled example",
          "app.recentProjects — projects opened before, newest first",
          "app.forgetRecent — drop one path from the recent list",
          "app.pickFolder — native open-folder dialog; null when cancelled",
          "project.open — open a project folder (the user chose it); it becomes this window's project",
          "project.current — the project this window has open, if any",
          "project.close — close the project (back to the picker)",
          "project.dashboard — scan the open project: targets, skills, costs, lock/policy/compile status, problems",
          "project.cachedDashboard — the open project's last scan kept from an earlier run, for the first paint while a fresh scan runs (may be out of date)",
          "project.watchStatus — whether changes on disk reach this window: the open project's folders watched and not, and why (answers once the first watch walk is done)",
          "project.watchGap — why a change made on disk in one folder of the open project, or in one under it, might not reach this window (null: all of them are watched)",
          "project.init — set the open folder up as a project: write kitbash.toml from the template with the chosen targets and create .kitbash/skills/ (never overwrites)",
          "skills.get — one installed skill: its files, manifest, SKILL.md and checks",
          "spec.list — installed skills that carry a skill.spec.yml",
          "spec.load — one installed skill's skill.spec.yml: its text and the full validation (imports, sidecars)",
          "runs.targets — installed skills with their scripts, gate mode and the sandbox label of each declared permission here",
          "runs.plan — what a run would do and under which restrictions, or why the runner refuses it — nothing runs; with unconfined, the one-time override plan",
          "runs.start — start a sandboxed run (output arrives as run.output / run.status); unconfined only with the token of an override plan, once",
          "runs.cancel — cancel a run this window started",
          "runs.history — runs and refusals from the audit log (.kitbash/runs.jsonl), newest first",
          "install.begin — fetch and stage a source (nothing in the project is written) and return its review",
          "install.approve — install exactly the reviewed closure, named by its integrity hash; refused when the review is blocked; re-reviews when the source changed",
          "install.cancel — discard a staged review without installing anything",
          "install.checkUpdate — refetch a pinned skill and return the update review (diff with escalations), or up-to-date",
          "install.applyUpdate — apply a reviewed update, named by its integrity hash; refused when blocked",
          "install.planRemove — what removing an installed skill does: dependents, orphans, deleted files, compile prunes",
          "install.remove — remove an installed skill (refused while others depend on it), optionally with its orphaned dependencies",
          "review.files — every file of a skill in a live review session, with size and kind",
          "review.file — one staged file of a skill in a live review session: text with its findings, or a binary named with its size",
          "review.acceptFinding — write a [[policy.exceptions]] entry to kitbash.toml for one blocking finding of the reviewed version (main re-checks the finding and takes the integrity from its staged copy)",
          "editor.open — a skill's files for the editor, each with its on-disk version",
          "editor.read — one file of a skill as it is on disk now",
          "editor.save — write one file atomically unless it changed on disk since \`expected\` (force: write anyway)",
          "editor.create — create a new manifested skill (skill.toml + SKILL.md) under .kitbash/skills/<name>",
          "compile.preview — one skill's compiled output per target with its unsaved buffers, planned as compile would (nothing is written)",
          "compile.plan — the compile plan for the project as saved on disk: files to write, merge and prune (nothing is written)",
          "compile.apply — compile the open project, if its plan is still the one shown (digest); writes through the compile service",
          "adopt.scan — hand-written skills in the open project's agent folders, each with its install review, and what skills-lock.json pins; nothing written",
          "adopt.apply — adopt exactly the scanned review (named by its hash) into .kitbash/skills, then recompile; refused when the project changed since",
          "sources.list — the skills a source holds (one clone, nothing staged or written): the source itself, or each skill of a repository of many",
          "evals.overview — skills with audit/behavioral/trigger evals, the runners (configured and presets, whether each can start here) and the newest stored result per cell",
          "evals.start — run evals like \`skillsmith eval\` (sandboxed trials; refused for a skill with a blocking safety failure); poll evals.status",
          "evals.runners — the runners an eval run would use, each with whether it is approved as defined now, what it may do and what changed since its approval",
          "evals.approveRunner — record the user's approval of a runner as listed by evals.runners (refused if its definition changed since)",
          "evals.status — progress and results so far of an eval run this process started",
          "evals.cancel — cancel an eval run this window started (the trial in flight is killed)",
          "evals.trial — one stored trial: its transcript (messages and tool calls), workspace diff, stderr and assertion results",
          "evals.history — pass rate of a skill's evals per stored run and skill version, oldest first",
          "folders.list — the sub-folders of a folder inside the user's home (the home folder when no path is given); hidden folders left out",
          "settings.read — kitbash.toml of the open project: its text, version, the values the Settings view edits and the known targets",
          "settings.preview — what a settings change would write to kitbash.toml (a diff) and which installed skills it blocks or unblocks; nothing written",
          "settings.apply — write a settings change to kitbash.toml atomically under the project lock, keeping comments and layout; refused when the file changed since it was read",
          "settings.confirmException — confirm, for this user, one [[policy.exceptions]] entry of kitbash.toml that arrived with the project, as written now (by its id)",
          "reports.costs — standing and loaded tokens of every installed skill on every target, and each agent’s skills listing (nothing written)",
          "reports.matrix — the compatibility matrix of the installed skills on every target (nothing written)",
          "reports.keptCosts — the Costs figures kept from an earlier run of the open project, for the first paint while fresh ones are computed (may be out of date)",
          "reports.keptMatrix — the matrix kept from an earlier run of the open project, for the first paint while a fresh one is graded (may be out of date)",
          "reports.explain — one matrix cell explained, as \`skillsmith explain\` does: reasons, what the target delivers, the cost",
          "lock.review — review an installed skill folder as it is now, to pin it in kitbash.lock (drift or never pinned); nothing written",
          "lock.repin — pin exactly the reviewed files in kitbash.lock (named by the review hash), then recompile; refused when blocked or changed since",
        ],
        "events": [
          "project.changed — files of the open project changed on disk (debounced)",
          "project.watch — whether changes on disk reach this window changed (the open project's folders watched and not)",
          "project.opened — main opened a project for this window (menu, second instance)",
          "project.closed — main closed this window's project (menu)",
          "progress — progress of a long operation",
          "run.output — output of a sandboxed run",
          "run.status — state of a sandboxed run: started, output truncated, exit with status and duration",
        ],
      }
    `);
  });

  it('pins the request shape of every channel (a widened request is a surface change too)', () => {
    const shapes = Object.fromEntries(
      listChannels().map((c) => [c.name, z.toJSONSchema(c.def.request, { io: 'input', unrepresentable: 'any' })]),
    );
    expect(Object.keys(shapes)).toHaveLength(listChannels().length);
    for (const [name, schema] of Object.entries(shapes)) {
      expect((schema as { type?: string }).type, name).toBe('object');
      // Every request object is closed: an unknown field is refused, never ignored.
      expect((schema as { additionalProperties?: unknown }).additionalProperties, name).toBe(false);
    }
    expect(Object.keys((shapes['project.open'] as { properties: object }).properties)).toEqual(['path']);
    expect(Object.keys((shapes['skills.get'] as { properties: object }).properties)).toEqual(['dir']);
  });

  it('names every channel once, as <area>.<method>', () => {
    const names = listChannels().map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });
});

describe('IPC exhaustiveness', () => {
  it('every channel has a handler in the one handler table, and the table has nothing else', () => {
    for (const { area, method, name } of listChannels()) {
      expect(typeof (HANDLERS[area] as Record<string, unknown>)[method], name).toBe('function');
    }
    const handled = Object.entries(HANDLERS).flatMap(([area, methods]) =>
      Object.keys(methods).map((m) => `${area}.${m}`),
    );
    expect(handled.sort()).toEqual(
      listChannels()
        .map((c) => c.name)
        .sort(),
    );
  });

  it('the preload bridge has a method for every channel that forwards to that channel, and nothing else', async () => {
    const calls: [string, unknown][] = [];
    const { bridge } = buildBridge(async (channel, request) => {
      calls.push([channel, request]);
      return { ok: true, value: channel };
    });
    const exposed = Object.entries(bridge)
      .filter(([k]) => k !== 'on')
      .flatMap(([area, group]) => Object.keys(group as object).map((m) => `${area}.${m}`));
    expect(exposed.sort()).toEqual(
      listChannels()
        .map((c) => c.name)
        .sort(),
    );
    for (const { area, method, name } of listChannels()) {
      const fn = (bridge[area] as Record<string, (r: unknown) => Promise<unknown>>)[method]!;
      expect(await fn({ probe: name })).toEqual({ ok: true, value: name });
    }
    expect(calls.map((c) => c[0])).toEqual(listChannels().map((c) => c.name));
    // Nothing that could reach ipcRenderer itself, process or require is on the bridge.
    expect(Object.keys(bridge).sort()).toEqual([...Object.keys(CONTRACT), 'on'].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('the bridge delivers only contract event streams', () => {
    const { bridge, deliver } = buildBridge(async () => ({ ok: true, value: null }));
    const on = bridge.on as (e: string, l: (p: unknown) => void) => () => void;
    const got: unknown[] = [];
    const off = on('project.changed', (p) => got.push(p));
    deliver('project.changed', { root: '/x', paths: [], at: 'now' });
    deliver('something-else', 1);
    off();
    deliver('project.changed', { root: '/y', paths: [], at: 'now' });
    expect(got).toEqual([{ root: '/x', paths: [], at: 'now' }]);
    expect(() => on('not-an-event', () => undefined)).toThrow(/unknown event stream/);
  });

  it('the renderer Api has a method for every channel, over any transport', async () => {
    const seen: string[] = [];
    const api = createApi({
      invoke: async (channel) => (seen.push(channel), { ok: true, value: { echoed: channel } }),
      subscribe: () => () => undefined,
    });
    for (const { area, method, name } of listChannels()) {
      const fn = (api[area] as unknown as Record<string, (r: unknown) => Promise<unknown>>)[method]!;
      expect(await fn({})).toEqual({ echoed: name });
    }
    expect(seen).toEqual(listChannels().map((c) => c.name));
  });

  it('turns an error envelope into a typed IpcError and refuses a malformed one', async () => {
    const api = createApi({
      invoke: async () => ({ ok: false, error: { code: 'no-project', message: 'no project is open' } }),
      subscribe: () => () => undefined,
    });
    await expect(api.project.dashboard({})).rejects.toMatchObject({
      name: 'IpcError',
      code: 'no-project',
      message: 'no project is open',
    });
    const bad = createApi({ invoke: async () => ({ weird: true }), subscribe: () => () => undefined });
    await expect(bad.app.info({})).rejects.toMatchObject({ code: 'invalid-response' });
  });
});
