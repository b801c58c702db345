import { describe, expect, it } from 'vitest';
import { resolveClosure, type Candidate } from '../../shared/resolve/resolve';

function c(name: string, version: string, dependencies: Record<string, string> = {}): Candidate {
  return { id: `${name}@${version}`, name, version, dependencies, origin: 'test' };
}
function pool(...cs: Candidate[]): Map<string, Candidate[]> {
  const m = new Map<string, Candidate[]>();
  for (const x of cs) m.set(x.name, [...(m.get(x.name) ?? []), x]);
  return m;
}
const picked = (r: ReturnType<typeof resolveClosure>) =>
  r.ok ? r.value.map((n) => `${n.candidate.name}@${n.candidate.version}`) : r.error.message;

describe('resolveClosure', () => {
  it('resolves a diamond to one pinned version, the highest that satisfies both sides', () => {
    const root = c('app', '1.0.0', { left: '^1.0.0', right: '^1.0.0' });
    const r = resolveClosure(
      root,
      pool(
        c('left', '1.0.0', { base: '^1.2.0' }),
        c('right', '1.1.0', { base: '>=1.0.0 <1.4.0' }),
        c('base', '1.1.0'),
        c('base', '1.3.5'),
        c('base', '1.4.0'),
        c('base', '2.0.0'),
      ),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(picked(r)).toEqual(['base@1.3.5', 'left@1.0.0', 'right@1.1.0', 'app@1.0.0']);
    const base = r.value.find((n) => n.candidate.name === 'base')!;
    expect(base.requiredBy.map((q) => `${q.by} ${q.range}`).sort()).toEqual([
      'left@1.0.0 ^1.2.0',
      'right@1.1.0 >=1.0.0 <1.4.0',
    ]);
    expect(r.value.find((n) => n.candidate.name === 'app')!.edges).toEqual([
      { name: 'left', range: '^1.0.0', version: '1.0.0' },
      { name: 'right', range: '^1.0.0', version: '1.1.0' },
    ]);
  });

  it('a conflict names the skill, every range and who asked for it', () => {
    const root = c('app', '1.0.0', { left: '^1.0.0', right: '^1.0.0' });
    const r = resolveClosure(
      root,
      pool(
        c('left', '1.0.0', { base: '^1.0.0' }),
        c('right', '1.0.0', { base: '^2.0.0' }),
        c('base', '1.5.0'),
        c('base', '2.1.0'),
      ),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('conflict');
    expect(r.error.message).toContain('base');
    expect(r.error.message).toContain('^1.0.0 by left@1.0.0');
    expect(r.error.message).toContain('^2.0.0 by right@1.0.0');
    expect(r.error.message).toContain('available: 2.1.0, 1.5.0');
  });

  it('a cycle is an error that names the cycle', () => {
    const root = c('app', '1.0.0', { a: '^1' });
    const r = resolveClosure(root, pool(c('a', '1.0.0', { b: '^1' }), c('b', '1.0.0', { a: '^1' })));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('cycle');
    expect(r.error.message).toContain('a → b → a');
  });

  it('a cycle through the requested skill is named too', () => {
    const root = c('app', '1.0.0', { a: '^1' });
    const r = resolveClosure(root, pool(c('a', '1.0.0', { app: '^1' })));
    expect(r.ok ? 'resolved' : r.error.message).toContain('app → a → app');
  });

  it('backtracks when the highest choice makes a later range unsatisfiable', () => {
    const root = c('app', '1.0.0', { a: '*', b: '^1' });
    const r = resolveClosure(
      root,
      pool(c('a', '2.0.0', { b: '^2' }), c('a', '1.0.0', { b: '^1' }), c('b', '1.0.0'), c('b', '2.0.0')),
    );
    expect(picked(r)).toEqual(['b@1.0.0', 'a@1.0.0', 'app@1.0.0']);
  });

  it('a missing dependency and an invalid range are named', () => {
    expect(picked(resolveClosure(c('app', '1.0.0', { ghost: '^1' }), pool()))).toMatch(
      /dependency ghost \(required as \^1 by app@1\.0\.0\) was not found/,
    );
    expect(picked(resolveClosure(c('app', '1.0.0', { a: 'not a range!' }), pool(c('a', '1.0.0'))))).toMatch(
      /invalid version range for a/,
    );
  });

  it('prereleases are not chosen by a plain range', () => {
    expect(
      picked(resolveClosure(c('app', '1.0.0', { a: '^1.0.0' }), pool(c('a', '1.1.0-beta.1'), c('a', '1.0.2')))),
    ).toEqual(['a@1.0.2', 'app@1.0.0']);
  });

  it('resolves a 300-node layered graph quickly', () => {
    const cs: Candidate[] = [];
    const layers = 30;
    const width = 10;
    for (let l = 0; l < layers; l++) {
      for (let w = 0; w < width; w++) {
        const deps: Record<string, string> = {};
        if (l + 1 < layers) for (let k = 0; k < 3; k++) deps[`n${l + 1}-${(w + k) % width}`] = '^1.0.0';
        for (const v of ['1.0.0', '1.1.0', '1.2.0']) cs.push(c(`n${l}-${w}`, v, deps));
      }
    }
    const root = c('root', '1.0.0', Object.fromEntries(Array.from({ length: width }, (_, w) => [`n0-${w}`, '^1.0.0'])));
    const t0 = performance.now();
    const r = resolveClosure(root, pool(...cs));
    const ms = performance.now() - t0;
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value).toHaveLength(301);
    expect(ms).toBeLessThan(5000);
  });
});
