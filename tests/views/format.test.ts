/**
 * Dates and counts on screen are formatted without Intl (renderer/src/format.ts,
 * shared/text/format.ts): the first Intl call in a page costs tens of milliseconds, and each
 * `toLocale…String` or `localeCompare` with options builds a new formatter. The house rule
 * below keeps those calls out of the renderer, so a render path cannot start paying again.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, relativeTime } from '../../renderer/src/format';
import { parseTs, readRenderer, rendererFiles } from './renderer-sources';

describe('formatDateTime and formatDate', () => {
  it('write local time, year first, zero-padded', () => {
    const iso = new Date(2026, 0, 5, 9, 7, 42).toISOString();
    expect(formatDateTime(iso)).toBe('2026-01-05 09:07');
    expect(formatDateTime(iso, { seconds: true })).toBe('2026-01-05 09:07:42');
    expect(formatDate(iso)).toBe('2026-01-05');
    const late = new Date(2026, 11, 31, 23, 59).toISOString();
    expect(formatDateTime(late)).toBe('2026-12-31 23:59');
  });

  it('give back what is not a date unchanged', () => {
    expect(formatDateTime('')).toBe('');
    expect(formatDate('yesterday-ish')).toBe('yesterday-ish');
  });

  it('relativeTime falls back to the date after two days', () => {
    const then = new Date(2026, 2, 1, 12, 0).toISOString();
    const now = new Date(2026, 2, 4, 12, 0).getTime();
    expect(relativeTime(then, now)).toBe('2026-03-01');
    expect(relativeTime(then, new Date(2026, 2, 1, 13, 0).getTime())).toBe('1 h ago');
  });
});

describe('house rule: no Intl formatting in the renderer', () => {
  it('no toLocale…String call, and localeCompare only in its cached default form', () => {
    const offenders: string[] = [];
    for (const rel of rendererFiles(/\.tsx?$/)) {
      const sf = parseTs(rel, readRenderer(rel));
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
          const name = node.expression.name.text;
          const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          if (/^toLocale(Date|Time)?String$/.test(name)) offenders.push(`${rel}:${line} ${name}`);
          if (name === 'localeCompare' && node.arguments.length > 1)
            offenders.push(`${rel}:${line} ${name} with options`);
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
    expect(offenders).toEqual([]);
  });
});
