import { join } from 'node:path';
import type { Refusal } from '../../../shared/lock/pick';
import { SKILLS_DIR } from '../skills/locate';
import { mapLimit } from '../skills/limit';
import { checkoutAt, type Checkout } from '../sources';
import type { SourceSkill } from './listing';
import { stageInstall, type StagedInstall } from './stage';
import { present } from './stage-review';

/** A pick staged and reviewed, waiting for the one approval of the batch. */
export interface StagedPick {
  readonly pick: SourceSkill;
  readonly staged: StagedInstall;
}

/** Several picks of one source, staged: what can be approved, what cannot, and what is there already. */
export interface StagedBatch {
  /** Reviewed and unblocked, in pick order. */
  readonly ready: StagedPick[];
  /** Reviewed and blocked by a safety check or the [policy]: refused, their reviews still shown. */
  readonly blocked: StagedPick[];
  /** Not staged or not approvable, each with why. */
  readonly refused: Refusal[];
  /** Installed already (by folder name), so not staged. */
  readonly skipped: string[];
  dispose(): Promise<void>;
}

/** Two staging lanes: each pick's own staging already reads in parallel, and the machine may be shared. */
const LANES = 2;

const firstLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();

/**
 * Stage every pick of an opened source for one review. A pick already installed is skipped;
 * one that shares a name with an earlier pick, fails to stage, or brings a skill another
 * pick brings with different bytes is refused on its own — the rest of the batch goes on.
 * Nothing in the project is written. No pick carries a compile preview: each would plan the
 * project with that pick alone, and the batch compiles once, after its one commit.
 */
export async function stageBatch(
  project: string,
  co: Checkout | undefined,
  picks: readonly SourceSkill[],
): Promise<StagedBatch> {
  const refused: Refusal[] = [];
  const skipped: string[] = [];
  const todo: SourceSkill[] = [];
  const byName = new Map<string, SourceSkill>();
  for (const p of picks) {
    const earlier = byName.get(p.name);
    if (earlier) {
      refused.push({
        name: p.name,
        why: `another pick is also named ${p.name} (${earlier.rel || 'the source root'}); install ${p.rel} on its own`,
      });
      continue;
    }
    byName.set(p.name, p);
    if (await present(join(project, SKILLS_DIR, p.name), true)) skipped.push(p.name);
    else todo.push(p);
  }
  const results = await mapLimit(
    todo,
    LANES,
    async (pick): Promise<StagedPick | { pick: SourceSkill; error: string }> => {
      try {
        // A marketplace's plugin in another repository has its own checkout.
        const from = pick.checkout ?? co;
        if (!from) throw new Error(`${pick.name}: its plugin was not fetched`);
        const checkout = from.materialize
          ? await from.materialize(pick.rel)
          : pick.rel === ''
            ? from
            : checkoutAt(from, pick.rel, pick.source);
        const plugin = pick.plugin ? { plugin: pick.plugin } : {};
        return { pick, staged: await stageInstall(project, pick.source, { checkout, compile: false, ...plugin }) };
      } catch (e) {
        return { pick, error: firstLine(e) };
      }
    },
  );
  const ready: StagedPick[] = [];
  const blocked: StagedPick[] = [];
  const drop: StagedInstall[] = [];
  // Which bytes each skill name stands for across the batch: one folder per name is written.
  const bytesOf = new Map<string, { integrity: string; by: string }>();
  for (const r of results) {
    if ('error' in r) {
      refused.push({ name: r.pick.name, why: r.error });
      continue;
    }
    const { staged } = r;
    if (staged.review.blockers.length > 0) {
      blocked.push(r);
      refused.push({ name: r.pick.name, why: staged.review.blockers[0]! });
      continue;
    }
    const clash = staged.nodes.find((n) => {
      const had = n.stagedDir ? bytesOf.get(n.name) : undefined;
      return had !== undefined && had.integrity !== n.integrity;
    });
    if (clash) {
      refused.push({
        name: r.pick.name,
        why: `it brings ${clash.name} with other contents than ${bytesOf.get(clash.name)!.by} does; install it on its own`,
      });
      drop.push(staged);
      continue;
    }
    for (const n of staged.nodes)
      if (n.stagedDir && !bytesOf.has(n.name)) bytesOf.set(n.name, { integrity: n.integrity, by: r.pick.name });
    ready.push(r);
  }
  await Promise.all(drop.map((s) => s.dispose()));
  return {
    ready,
    blocked,
    refused,
    skipped,
    dispose: async () => {
      for (const r of [...ready, ...blocked]) await r.staged.dispose();
    },
  };
}
