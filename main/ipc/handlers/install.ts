import type { ReviewView, UpdateCheck } from '../../../shared/ipc/channels/install';
import { planCompile } from '../../../shared/compile/plan';
import type { Skill } from '../../../shared/ksf/model';
import { lintSkill } from '../../../shared/lint/checks';
import type { Location } from '../../../shared/lint/types';
import { unifiedDiff } from '../../../shared/text/diff';
import type { InstallReview } from '../../../shared/lock/review';
import { diskProject, loadInstalled } from '../../services/compile';
import { withEnforcement } from '../../services/install/enforcement';
import { applyRemove, planRemove } from '../../services/install/remove';
import { approveInstall, beginInstall, cancelInstall, stagedOf } from '../../services/install/sessions';
import { commitInstall, CommitRefused, projectConfigOrThrow, type StagedInstall } from '../../services/install/stage';
import { checkUpdate } from '../../services/install/update';
import { readLockOrThrow } from '../../services/lock';
import { installedSkills, SKILLS_DIR } from '../../services/skills/locate';
import { SourceError } from '../../services/sources/copy';
import { withProjectLock } from '../../services/workspace/project-lock';
import { recompileAfterChange } from '../../services/workspace/recompile';
import { recover } from '../../services/workspace/txn';
import { HandlerError } from '../errors';
import type { Session } from '../session';
import type { AreaHandlers, HandlerContext } from '../table';

/**
 * The install approval dialog's handlers. Every review lives here, in main, bound to the
 * renderer session and the project it was made for; the renderer names it by id and the
 * hash it was shown. Approval is refused for a blocked review whatever the renderer
 * sends (and the workspace service's commit refuses it again).
 */

interface Pending {
  readonly kind: 'install' | 'update';
  readonly project: string;
  readonly source: string;
  readonly review: InstallReview;
  /** Update reviews own their staged copy (install reviews live in the service's sessions). */
  readonly staged?: StagedInstall;
  readonly at: number;
}

const TTL_MS = 30 * 60 * 1000;
const pendingBySession = new WeakMap<Session, Map<string, Pending>>();

function pendingOf(session: Session): Map<string, Pending> {
  let m = pendingBySession.get(session);
  if (!m) pendingBySession.set(session, (m = new Map()));
  const now = Date.now();
  for (const [id, p] of m) if (now - p.at > TTL_MS) drop(m, id);
  return m;
}

function drop(m: Map<string, Pending>, id: string): void {
  const p = m.get(id);
  if (!p) return;
  m.delete(id);
  if (p.staged) p.staged.dispose();
  else cancelInstall(id);
}

/** The open project's root. */
function projectRoot(ctx: HandlerContext): string {
  return ctx.session.requireProject().ref.root;
}

/** The live review `id` of this session for the open project, or a `not-found` error. */
function takeReview(
  ctx: HandlerContext,
  id: string,
  kind: Pending['kind'],
): { pending: Pending; map: Map<string, Pending> } {
  const map = pendingOf(ctx.session);
  const pending = map.get(id);
  if (!pending || pending.kind !== kind)
    throw new HandlerError('not-found', 'this review has expired or was already used — review the source again');
  if (pending.project !== projectRoot(ctx))
    throw new HandlerError('forbidden', 'this review was made for another project — review the source again');
  return { pending, map };
}

/**
 * The staged copy behind a live review of this session (install or update) without taking
 * it: for reading its files and accepting one of its findings. `not-found` otherwise.
 */
export function liveReview(ctx: HandlerContext, id: string): { project: string; staged: StagedInstall } {
  const pending = pendingOf(ctx.session).get(id);
  if (!pending)
    throw new HandlerError('not-found', 'this review has expired or was already used — review the source again');
  if (pending.project !== projectRoot(ctx))
    throw new HandlerError('forbidden', 'this review was made for another project — review the source again');
  const staged = pending.staged ?? stagedOf(id);
  if (!staged)
    throw new HandlerError('not-found', 'this review has expired or was already used — review the source again');
  return { project: pending.project, staged };
}

/** The two refusals that hold for every approval, before anything else is looked at. */
function refuseUnapprovable(review: InstallReview, integrity: string): void {
  if (review.blockers.length > 0) {
    throw new HandlerError(
      'forbidden',
      `blocked — ${review.blockers.length} safety or policy finding(s) (${review.blockers[0]}); a blocked review cannot be approved`,
    );
  }
  if (integrity !== review.integrity)
    throw new HandlerError(
      'forbidden',
      `the approval names ${integrity}, but the review is ${review.integrity} — nothing installed`,
    );
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
}

/** A service error as a contract error with a one-line message. */
function asHandlerError(e: unknown, what: string): HandlerError {
  if (e instanceof HandlerError) return e;
  if (e instanceof SourceError) return new HandlerError('invalid-request', `${what}: ${firstLine(e)}`);
  if (e instanceof CommitRefused) return new HandlerError('forbidden', `${what}: ${firstLine(e)}`);
  return new HandlerError('internal', `${what}: ${firstLine(e)}`);
}

function progress(
  ctx: HandlerContext,
  id: string | undefined,
  label: string,
  done: number,
  total: number | null,
): Promise<void> {
  if (id === undefined) return Promise.resolve();
  ctx.session.emit('progress', { id, label, done, total });
  // Let the event leave before the (synchronous) fetch holds the thread.
  return new Promise((resolve) => setImmediate(resolve));
}

/** Locations of each failing or warning check, by check id, from the staged copy. */
function locationsOf(skill: Skill | undefined): Map<string, Location[]> {
  const out = new Map<string, Location[]>();
  if (!skill) return out;
  for (const c of lintSkill(skill))
    if (c.status !== 'pass' && c.locations?.length)
      out.set(
        c.id,
        c.locations.map((l) => ({ ...l })),
      );
  return out;
}

/** Standing tokens per session per target, with the project as it is and with `incoming` installed. */
function standingDelta(project: string, incoming: readonly Skill[]): ReviewView['standing'] {
  try {
    const config = projectConfigOrThrow(project);
    const { skills, failures } = loadInstalled(project);
    const view = diskProject(project);
    const names = new Set(incoming.map((s) => s.manifest.skill.name));
    const before = planCompile({ skills, failures, config, project: view }).standing;
    const after = planCompile({
      skills: [...skills.filter((s) => !names.has(s.manifest.skill.name)), ...incoming],
      failures,
      config,
      project: view,
    }).standing;
    return after.map((a) => ({
      target: a.target,
      loading: a.loading,
      before: before.find((b) => b.target === a.target)?.tokens ?? 0,
      after: a.tokens,
    }));
  } catch {
    return [];
  }
}

/** The review as the dialog gets it: the service's object field for field, plus locations and standing per target. */
function toView(
  id: string,
  review: InstallReview,
  staged: StagedInstall | undefined,
  project: string,
  diffs?: ReviewView['diffs'],
): ReviewView {
  const skills = new Map((staged?.nodes ?? []).map((n) => [n.name, n]));
  const incoming = (staged?.nodes ?? []).filter((n) => n.stagedDir !== undefined).map((n) => n.skill);
  return {
    id,
    kind: review.kind,
    root: review.root,
    source: { ...review.source },
    nodes: review.nodes.map((n) => {
      const node = skills.get(n.name);
      const locs = locationsOf(node?.stagedDir !== undefined ? node.skill : undefined);
      const finding = (f: (typeof n.lint)[number]) => ({ ...f, locations: locs.get(f.id) ?? [] });
      return {
        ...n,
        source: { ...n.source },
        manifest: {
          ...n.manifest,
          commands: [...n.manifest.commands],
          events: [...n.manifest.events],
          produces: [...n.manifest.produces],
          consumes: [...n.manifest.consumes],
          scripts: [...n.manifest.scripts],
          mcpServers: n.manifest.mcpServers.map((s) => ({ ...s, tools: [...s.tools] })),
        },
        permissions: n.permissions.map((p) => ({
          ...p,
          ...(p.enforcement ? { enforcement: { ...p.enforcement } } : {}),
        })),
        requires: [...n.requires],
        lint: n.lint.map(finding),
        safety: n.safety.map(finding),
        accepted: n.accepted.map((a) => ({ ...a })),
        verdict: { ...n.verdict },
        policy: [...n.policy],
        dependencies: n.dependencies.map((d) => ({ ...d })),
        consumes: n.consumes.map((c) => ({ ...c })),
        files: [...n.files],
      };
    }),
    writes: [...review.writes],
    blockers: [...review.blockers],
    notices: [...review.notices],
    ...(review.changes ? { changes: review.changes.map((c) => ({ ...c })) } : {}),
    ...(review.fileChanges ? { fileChanges: review.fileChanges.map((c) => ({ ...c })) } : {}),
    ...(diffs ? { diffs } : {}),
    ...(review.compile
      ? {
          compile: {
            writes: [...review.compile.writes],
            prunes: [...review.compile.prunes],
            errors: [...review.compile.errors],
          },
        }
      : {}),
    agents: (review.agents ?? []).map((a) => ({ ...a })),
    standing: standingDelta(project, incoming),
    integrity: review.integrity,
  };
}

const MAX_DIFF = 20_000;
const MAX_DIFFS = 200_000;

async function reviewInstall(
  ctx: HandlerContext,
  project: string,
  source: string,
  progressId: string | undefined,
  step: number,
  total: number,
): Promise<ReviewView> {
  await progress(ctx, progressId, `fetching ${source} and checking it`, step, total);
  let begun: Awaited<ReturnType<typeof beginInstall>>;
  try {
    begun = await beginInstall(project, source);
  } catch (e) {
    throw asHandlerError(e, 'install');
  }
  await progress(ctx, progressId, 'planning the standing cost per target', step + 1, total);
  pendingOf(ctx.session).set(begun.id, { kind: 'install', project, source, review: begun.review, at: Date.now() });
  const view = toView(begun.id, begun.review, stagedOf(begun.id), project);
  await progress(ctx, progressId, 'review ready', step + 2, total);
  return view;
}

export const installHandlers: AreaHandlers<'install'> = {
  begin: async (req, ctx) => reviewInstall(ctx, projectRoot(ctx), req.source, req.progressId, 0, 2),

  approve: async (req, ctx) => {
    const { pending, map } = takeReview(ctx, req.id, 'install');
    refuseUnapprovable(pending.review, req.integrity);
    // Fetch the source again: an approval holds only for the bytes that were reviewed.
    await progress(ctx, req.progressId, `fetching ${pending.source} again to check it has not changed`, 0, 3);
    let fresh: Awaited<ReturnType<typeof beginInstall>>;
    try {
      fresh = await beginInstall(pending.project, pending.source);
    } catch (e) {
      throw asHandlerError(e, 'install (re-checking the source)');
    }
    if (fresh.review.integrity !== pending.review.integrity) {
      drop(map, req.id);
      await progress(ctx, req.progressId, 'the source changed — new review', 1, 3);
      map.set(fresh.id, {
        kind: 'install',
        project: pending.project,
        source: pending.source,
        review: fresh.review,
        at: Date.now(),
      });
      return {
        outcome: 'changed' as const,
        message: `the source changed since you reviewed it (was ${pending.review.integrity.slice(0, 19)}…, now ${fresh.review.integrity.slice(0, 19)}…) — nothing installed; read the new review`,
        review: toView(fresh.id, fresh.review, stagedOf(fresh.id), pending.project),
      };
    }
    cancelInstall(fresh.id);
    map.delete(req.id);
    await progress(ctx, req.progressId, 'installing and compiling', 2, 3);
    try {
      const done = await approveInstall(req.id, req.integrity);
      return { outcome: 'installed' as const, installed: done.installed, notes: done.notes };
    } catch (e) {
      throw asHandlerError(e, 'install');
    } finally {
      await progress(ctx, req.progressId, 'done', 3, 3);
    }
  },

  cancel: (req, ctx) => {
    const map = pendingOf(ctx.session);
    if (!map.has(req.id)) return { cancelled: false };
    drop(map, req.id);
    return { cancelled: true };
  },

  checkUpdate: async (req, ctx) => reviewUpdate(ctx, projectRoot(ctx), req.name, req.progressId),

  applyUpdate: async (req, ctx) => {
    const { pending, map } = takeReview(ctx, req.id, 'update');
    refuseUnapprovable(pending.review, req.integrity);
    // Refetch: the approval holds only for the bytes that were reviewed.
    const again = await reviewUpdate(ctx, pending.project, pending.review.root, undefined);
    if (again.status !== 'changed' || again.review.integrity !== pending.review.integrity) {
      drop(map, req.id);
      return {
        outcome: 'changed' as const,
        message: `the pinned source changed since you reviewed the update (was ${pending.review.integrity.slice(0, 19)}…, now ${again.status === 'changed' ? `${again.review.integrity.slice(0, 19)}…` : 'the installed version'}) — nothing applied; read the new review`,
        check: again,
      };
    }
    drop(map, again.review.id);
    map.delete(req.id);
    const staged = pending.staged!;
    const notes: string[] = [];
    try {
      await withProjectLock(pending.project, `update (app) ${pending.review.root}`, async () => {
        notes.push(...recover(pending.project));
        commitInstall(staged, { integrity: req.integrity }, 'update');
        await recompileAfterChange(pending.project, (t) => notes.push(t.trim()), 'update');
      });
    } catch (e) {
      throw asHandlerError(e, 'update');
    } finally {
      staged.dispose();
    }
    return {
      outcome: 'updated' as const,
      updated: pending.review.root,
      version: pending.review.nodes[0]!.version,
      notes,
    };
  },

  planRemove: (req, ctx) => {
    const project = projectRoot(ctx);
    if (!installedSkills(project).some((s) => s.nameHint === req.name))
      throw new HandlerError('not-found', `${req.name} is not installed`);
    try {
      const plan = planRemove(project, req.name);
      const entry = readLockOrThrow(project).entries.find((e) => e.name === req.name);
      return {
        name: req.name,
        version: entry?.version ?? null,
        dependents: [...plan.dependents],
        orphans: [...plan.orphans],
        deletes: [req.name, ...plan.orphans].map((n) => `${SKILLS_DIR.split('\\').join('/')}/${n}/`),
        compile: compileWithout(project, [req.name]),
      };
    } catch (e) {
      throw asHandlerError(e, 'remove');
    }
  },

  remove: async (req, ctx) => {
    const project = projectRoot(ctx);
    const notes: string[] = [];
    try {
      return await withProjectLock(project, `remove (app) ${req.name}`, async () => {
        notes.push(...recover(project));
        if (!installedSkills(project).some((s) => s.nameHint === req.name))
          throw new HandlerError('not-found', `${req.name} is not installed (removed meanwhile?)`);
        const plan = planRemove(project, req.name);
        if (plan.dependents.length) {
          throw new HandlerError(
            'forbidden',
            `cannot remove ${req.name}: ${plan.dependents.join(', ')} depend${plan.dependents.length === 1 ? 's' : ''} on it — remove ${plan.dependents.length === 1 ? 'that' : 'those'} first`,
          );
        }
        const extra = req.orphans.filter((o) => !plan.orphans.includes(o));
        if (extra.length)
          throw new HandlerError(
            'forbidden',
            `${extra.join(', ')}: not an orphaned dependency of ${req.name} — nothing removed`,
          );
        const names = [req.name, ...req.orphans];
        applyRemove(project, names);
        await recompileAfterChange(project, (t) => notes.push(t.trim()), 'remove');
        return { removed: names, notes };
      });
    } catch (e) {
      throw asHandlerError(e, 'remove');
    }
  },
};

/** Refetch a pinned skill and build its update review (kept in this session until applied or cancelled). */
async function reviewUpdate(
  ctx: HandlerContext,
  project: string,
  name: string,
  progressId: string | undefined,
): Promise<UpdateCheck> {
  const entry = readLockOrThrow(project).entries.find((e) => e.name === name);
  if (!entry) throw new HandlerError('not-found', `${name} is not pinned in kitbash.lock — nothing to update`);
  await progress(ctx, progressId, `refetching ${entry.source}`, 0, 2);
  const c = checkUpdate(project, entry);
  if (c.kind === 'failed') throw new HandlerError('invalid-request', `update: ${c.message.split('\n')[0]}`);
  if (c.kind === 'up-to-date') {
    await progress(ctx, progressId, 'up to date', 2, 2);
    return {
      status: 'up-to-date' as const,
      name: entry.name,
      version: entry.version,
      ...(c.note ? { note: c.note } : {}),
    };
  }
  let review: InstallReview;
  try {
    review = await withEnforcement(c.review);
  } catch (e) {
    c.staged.dispose();
    throw asHandlerError(e, 'update');
  }
  await progress(ctx, progressId, 'building the review diff', 1, 2);
  let budget = MAX_DIFFS;
  const diffs: NonNullable<ReviewView['diffs']> = [];
  for (const f of c.files) {
    if (f.opaque || budget <= 0) continue;
    let d = unifiedDiff(f.path, f.before ?? '', f.after ?? '');
    if (!d) continue;
    if (d.length > MAX_DIFF) d = `${d.slice(0, MAX_DIFF)}\n… (diff cut at ${MAX_DIFF} characters)\n`;
    budget -= d.length;
    diffs.push({ path: f.path, diff: d });
  }
  pendingOf(ctx.session).set(c.staged.id, {
    kind: 'update',
    project,
    source: entry.source,
    review,
    staged: c.staged,
    at: Date.now(),
  });
  const view = toView(c.staged.id, review, c.staged, project, diffs);
  await progress(ctx, progressId, 'review ready', 2, 2);
  return { status: 'changed' as const, name: entry.name, from: entry.version, localEdits: c.localEdits, review: view };
}

/** The compile plan once `names` are gone. */
function compileWithout(
  project: string,
  names: readonly string[],
): { writes: string[]; prunes: string[]; errors: string[] } {
  try {
    const config = projectConfigOrThrow(project);
    const { skills, failures } = loadInstalled(project);
    const plan = planCompile({
      skills: skills.filter((s) => !names.includes(s.manifest.skill.name)),
      failures,
      config,
      project: diskProject(project),
    });
    return {
      writes: [...plan.write, ...plan.merge].filter((f) => f.changed).map((f) => f.path),
      prunes: plan.prune.map((p) => p.path),
      errors: [...plan.errors],
    };
  } catch (e) {
    return { writes: [], prunes: [], errors: [firstLine(e)] };
  }
}
