import semver from 'semver';
import type { Result, SkillsmithError } from '../result';

/**
 * Dependency resolution, pure: candidates in, a closure or a typed error out.
 * Each skill name gets exactly one version. For every name the resolver tries the
 * highest candidate that satisfies every range currently placed on it, and backtracks
 * when a choice makes a later requirement unsatisfiable. Installed skills are offered
 * as their one installed version, so the closure never silently changes them.
 */

/** One version of one skill that could be chosen. `id` is opaque to the resolver (the caller's handle). */
export interface Candidate {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** `[dependencies]` of this version: name → semver range. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Where it comes from, for messages and the review (e.g. "sibling", "catalog team", "installed"). */
  readonly origin: string;
}

export interface Requirement {
  /** `name@version` of the dependent. */
  readonly by: string;
  readonly range: string;
}

export interface ResolvedNode {
  readonly candidate: Candidate;
  /** The ranges that led here, one per dependent (empty for the root). */
  readonly requiredBy: readonly Requirement[];
  /** name → { range, version chosen } for each dependency of this node. */
  readonly edges: readonly { readonly name: string; readonly range: string; readonly version: string }[];
}

/** Why no closure exists; the code is `invalid-input` (the source's dependencies cannot be met). */
export type ResolveError = SkillsmithError &
  (
    | {
        readonly kind: 'missing';
        readonly name: string;
        readonly requirements: readonly Requirement[];
        readonly message: string;
      }
    | {
        readonly kind: 'conflict';
        readonly name: string;
        readonly requirements: readonly Requirement[];
        readonly available: readonly string[];
        readonly message: string;
      }
    | { readonly kind: 'cycle'; readonly cycle: readonly string[]; readonly message: string }
    | {
        readonly kind: 'invalid-range';
        readonly name: string;
        readonly requirements: readonly Requirement[];
        readonly message: string;
      }
  );

export type Resolution = Result<readonly ResolvedNode[], ResolveError>;

export interface ResolveOptions {
  /** Give up after this many candidate trials (a pathological graph must not hang the install). */
  readonly maxSteps?: number;
}

/**
 * Resolve the closure of `root` over `candidates` (name → versions, any order).
 * Nodes come back dependencies first (a topological order), the root last.
 */
export function resolveClosure(
  root: Candidate,
  candidates: ReadonlyMap<string, readonly Candidate[]>,
  options: ResolveOptions = {},
): Resolution {
  const rootKey = `${root.name}@${root.version}`;
  for (const [name, range] of Object.entries(root.dependencies)) {
    if (semver.validRange(range) === null) return { ok: false, error: invalidRange(name, [{ by: rootKey, range }]) };
  }
  const sorted = new Map<string, Candidate[]>();
  for (const [name, list] of candidates) {
    sorted.set(
      name,
      [...list].filter((c) => semver.valid(c.version) !== null).sort((a, b) => semver.rcompare(a.version, b.version)),
    );
  }
  const maxSteps = options.maxSteps ?? 200_000;
  let steps = 0;
  let deepest: ResolveError | undefined;
  let deepestDepth = -1;

  type State = { chosen: Map<string, Candidate>; reqs: Map<string, Requirement[]> };
  const addReqs = (reqs: Map<string, Requirement[]>, c: Candidate): Map<string, Requirement[]> => {
    const next = new Map(reqs);
    const by = `${c.name}@${c.version}`;
    for (const [name, range] of Object.entries(c.dependencies))
      next.set(name, [...(next.get(name) ?? []), { by, range }]);
    return next;
  };

  const fail = (e: ResolveError, depth: number): undefined => {
    if (depth > deepestDepth) {
      deepest = e;
      deepestDepth = depth;
    }
    return undefined;
  };

  const ranges = new Map<string, semver.Range | null>();
  const rangeOf = (r: string): semver.Range | null => {
    let v = ranges.get(r);
    if (v === undefined) {
      v = semver.validRange(r) === null ? null : new semver.Range(r);
      ranges.set(r, v);
    }
    return v;
  };
  const holds = (version: string, r: Requirement): boolean => rangeOf(r.range)?.test(version) ?? false;

  const solve = (state: State, depth: number): State | undefined => {
    // The first name that is asked for but not chosen yet (breadth-first, so stable).
    let nextName: string | undefined;
    for (const name of state.reqs.keys()) {
      if (!state.chosen.has(name)) {
        nextName = name;
        break;
      }
    }
    if (nextName === undefined) return state;
    const rs = state.reqs.get(nextName)!;
    for (const r of rs) if (rangeOf(r.range) === null) return fail(invalidRange(nextName, [r]), depth);
    const all = sorted.get(nextName) ?? [];
    if (all.length === 0) return fail(missing(nextName, rs), depth);
    const options = all.filter((c) => rs.every((r) => holds(c.version, r)));
    if (options.length === 0)
      return fail(
        conflict(
          nextName,
          rs,
          all.map((c) => c.version),
        ),
        depth,
      );
    for (const option of options) {
      if (++steps > maxSteps)
        return fail(
          {
            code: 'invalid-input',
            kind: 'conflict',
            name: nextName,
            requirements: rs,
            available: [],
            message: `gave up resolving ${nextName} after ${maxSteps} trials — the dependency graph is too tangled`,
          },
          depth,
        );
      // The option's own ranges must hold for everything already chosen.
      const by = `${option.name}@${option.version}`;
      let clash: ResolveError | undefined;
      for (const [dep, range] of Object.entries(option.dependencies)) {
        const req = { by, range };
        if (rangeOf(range) === null) {
          clash = invalidRange(dep, [req]);
          break;
        }
        const chosenDep = dep === nextName ? option : state.chosen.get(dep);
        if (chosenDep && !holds(chosenDep.version, req)) {
          clash = conflict(
            dep,
            [...(state.reqs.get(dep) ?? []), req],
            (sorted.get(dep) ?? []).map((x) => x.version),
          );
          break;
        }
      }
      if (clash) {
        fail(clash, depth + 1);
        continue;
      }
      const chosen = new Map(state.chosen).set(nextName, option);
      const found = solve({ chosen, reqs: addReqs(state.reqs, option) }, depth + 1);
      if (found) return found;
      if (steps > maxSteps) return undefined;
    }
    return undefined;
  };

  const start: State = { chosen: new Map([[root.name, root]]), reqs: addReqs(new Map(), root) };
  const solved = solve(start, 0);
  if (!solved)
    return {
      ok: false,
      error: deepest ?? {
        code: 'invalid-input',
        kind: 'conflict',
        name: root.name,
        requirements: [],
        available: [],
        message: `cannot resolve the dependencies of ${rootKey}`,
      },
    };

  const cycle = findCycle(root.name, solved.chosen);
  if (cycle)
    return {
      ok: false,
      error: {
        code: 'invalid-input',
        kind: 'cycle',
        cycle,
        message: `dependency cycle: ${cycle.join(' → ')} — a skill cannot depend on itself, even indirectly`,
      },
    };

  // Dependencies first: post-order from the root.
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const c = solved.chosen.get(name)!;
    for (const dep of Object.keys(c.dependencies).sort()) visit(dep);
    order.push(name);
  };
  visit(root.name);
  const nodes = order.map((name): ResolvedNode => {
    const c = solved.chosen.get(name)!;
    return {
      candidate: c,
      requiredBy: name === root.name ? [] : (solved.reqs.get(name) ?? []),
      edges: Object.entries(c.dependencies)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([dep, range]) => ({ name: dep, range, version: solved.chosen.get(dep)!.version })),
    };
  });
  return { ok: true, value: nodes };
}

function findCycle(root: string, chosen: ReadonlyMap<string, Candidate>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const dfs = (name: string): string[] | undefined => {
    state.set(name, 'open');
    stack.push(name);
    for (const dep of Object.keys(chosen.get(name)?.dependencies ?? {}).sort()) {
      const s = state.get(dep);
      if (s === 'open') return [...stack.slice(stack.indexOf(dep)), dep];
      if (s === undefined) {
        const found = dfs(dep);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(name, 'done');
    return undefined;
  };
  return dfs(root);
}

const listReqs = (rs: readonly Requirement[]): string => rs.map((r) => `${r.range} by ${r.by}`).join(', ');

function missing(name: string, requirements: Requirement[]): ResolveError {
  return {
    code: 'invalid-input',
    kind: 'missing',
    name,
    requirements,
    message: `dependency ${name} (required as ${listReqs(requirements)}) was not found — not a sibling in the source, in a [sources] catalog, or installed`,
  };
}

function conflict(name: string, requirements: Requirement[], available: string[]): ResolveError {
  const avail = available.length > 0 ? `available: ${[...new Set(available)].join(', ')}` : 'no versions available';
  return {
    code: 'invalid-input',
    kind: 'conflict',
    name,
    requirements,
    available,
    message: `version conflict on ${name}: required as ${listReqs(requirements)} — no single version satisfies them all (${avail})`,
  };
}

function invalidRange(name: string, requirements: Requirement[]): ResolveError {
  return {
    code: 'invalid-input',
    kind: 'invalid-range',
    name,
    requirements,
    message: `invalid version range for ${name}: ${listReqs(requirements)} — use an npm semver range such as ^1.2.0`,
  };
}
