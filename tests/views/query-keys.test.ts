/**
 * Every TanStack Query key comes from renderer/src/query-keys.ts: a query's `queryKey`, an
 * invalidation, a cache read or write. A literal array (or anything but a `queryKeys.…()`
 * call) at such a call site fails here, with its file and line. The factories' prefixes —
 * which invalidation relies on — are checked too.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { TargetId } from '../../shared/targets/types';
import { queryKeys } from '../../renderer/src/query-keys';
import { at, parseTs, readRenderer, rendererFiles, unwrap } from './renderer-sources';

/** QueryClient methods whose first argument is a key, or filters holding one. */
const CLIENT_METHODS = new Set([
  'cancelQueries',
  'ensureQueryData',
  'fetchQuery',
  'getQueriesData',
  'getQueryData',
  'getQueryState',
  'invalidateQueries',
  'isFetching',
  'prefetchQuery',
  'refetchQueries',
  'removeQueries',
  'resetQueries',
  'setQueriesData',
  'setQueryData',
]);
/** Hooks of the renderer that take a key as an argument, and which one. */
const KEY_ARGUMENT: Record<string, number> = { useRefreshOnChange: 1 };
/** The one file that receives a key instead of naming one: it forwards what its caller passed (checked there). */
const FORWARDS = new Set(['use-refresh-on-change.ts']);

/** `queryKeys.area.key(…)`. */
function isFactoryCall(e: ts.Expression): boolean {
  e = unwrap(e);
  if (!ts.isCallExpression(e)) return false;
  let callee: ts.Expression = e.expression;
  while (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) && callee.text === 'queryKeys' && ts.isPropertyAccessExpression(e.expression);
}

/** Every key site in `text` that does not name its key through `queryKeys`. */
export function literalKeys(rel: string, text: string): string[] {
  const sf = parseTs(rel, text);
  const bad: string[] = [];
  const check = (key: ts.Expression) => {
    if (!isFactoryCall(key)) bad.push(`${at(sf, key)} ${key.getText(sf)}`);
  };
  const visit = (n: ts.Node): void => {
    if (
      ts.isPropertyAssignment(n) &&
      (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name)) &&
      (n.name.text === 'queryKey' || n.name.text === 'mutationKey')
    )
      check(n.initializer);
    if (ts.isShorthandPropertyAssignment(n) && (n.name.text === 'queryKey' || n.name.text === 'mutationKey'))
      bad.push(`${at(sf, n)} ${n.getText(sf)}`);
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const first = n.arguments[0];
      // A filters object is checked through its queryKey property above.
      if (CLIENT_METHODS.has(name) && first && !ts.isObjectLiteralExpression(unwrap(first))) check(first);
      const i = KEY_ARGUMENT[name];
      if (i !== undefined && n.arguments[i]) check(n.arguments[i]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return bad;
}

describe('query keys come from one module', () => {
  const files = rendererFiles(/\.tsx?$/).filter((f) => f !== 'query-keys.ts');

  it('reads the renderer', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('queries.ts');
  });

  it('no queryKey, invalidation or cache write names a key but through queryKeys', () => {
    const bad = files.filter((f) => !FORWARDS.has(f)).flatMap((f) => literalKeys(f, readRenderer(f)));
    expect(bad).toEqual([]);
  });

  it('finds the key sites it checks (the rule is not vacuous)', () => {
    const sites = files.filter((f) => /queryKey:|invalidateQueries|setQueryData/.test(readRenderer(f)));
    expect(sites.length).toBeGreaterThan(20);
  });

  it('no other module defines keys', () => {
    const others = files.filter(
      (f) => /(^|\/)keys\.tsx?$/.test(f) || /export const \w*[kK]eys\b/.test(readRenderer(f)),
    );
    expect(others).toEqual([]);
  });

  it.each([
    ["useQuery({ queryKey: ['app', 'info'], queryFn })", 1],
    ["useQuery({ queryKey: [...queryKeys.reports.all(root), 'costs'], queryFn })", 1],
    ["qc.invalidateQueries({ queryKey: ['project', 'dashboard', root] })", 1],
    ["qc.setQueryData(['app', 'recent'], r)", 1],
    ['qc.getQueryData(key)', 1],
    ['useQuery({ queryKey, queryFn })', 1],
    ["useRefreshOnChange(root, ['runs', root])", 1],
    ['useQuery({ queryKey: queryKeys.app.info(), queryFn })', 0],
    ['qc.setQueryData(queryKeys.app.recent(), r)', 0],
    ['qc.invalidateQueries({ queryKey: queryKeys.runs.histories(root) })', 0],
    ['qc.invalidateQueries()', 0],
  ])('flags %s: %i', (code, n) => {
    expect(literalKeys('x.tsx', `export function f() { ${code}; }\n`)).toHaveLength(n);
  });
});

describe('query key prefixes: invalidating the shorter refetches the longer', () => {
  const root = '/p';
  const prefixOf = (short: readonly unknown[], long: readonly unknown[]) =>
    short.length < long.length && short.every((x, i) => x === long[i]);

  it.each([
    ['skills.of', queryKeys.skills.of(root), queryKeys.skills.get(root, 'a')],
    ['reports.all (costs)', queryKeys.reports.all(root), queryKeys.reports.costs(root)],
    ['reports.all (matrix)', queryKeys.reports.all(root), queryKeys.reports.matrix(root)],
    ['reports.all (explain)', queryKeys.reports.all(root), queryKeys.reports.explain(root, 'a', 't' as TargetId)],
    ['spec.all (list)', queryKeys.spec.all(root), queryKeys.spec.list(root)],
    ['spec.all (load)', queryKeys.spec.all(root), queryKeys.spec.load(root, 'a')],
    ['runs.all (targets)', queryKeys.runs.all(root), queryKeys.runs.targets(root)],
    ['runs.all (plan)', queryKeys.runs.all(root), queryKeys.runs.plan(root, '{}')],
    ['runs.histories', queryKeys.runs.histories(root), queryKeys.runs.history(root, 'a')],
  ])('%s', (_, short, long) => {
    expect(prefixOf(short, long)).toBe(true);
  });

  it('keeps projects apart: one root never prefixes another root’s keys', () => {
    expect(prefixOf(queryKeys.skills.of('/p'), queryKeys.skills.get('/p2', 'a'))).toBe(false);
    expect(prefixOf(queryKeys.reports.all('/p'), queryKeys.reports.costs('/q'))).toBe(false);
  });

  it('gives every factory a distinct key', () => {
    const all: string[] = [];
    for (const area of Object.values(queryKeys))
      for (const make of Object.values(area) as ((...a: string[]) => readonly unknown[])[])
        all.push(JSON.stringify(make('r', 's', 't')));
    expect(new Set(all).size).toBe(all.length);
  });
});
