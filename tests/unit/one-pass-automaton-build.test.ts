/**
 * The automaton's construction is written for one process's start (no loop over every cell
 * of its table, spec D145); this pins that it builds exactly the table of the plain textbook
 * construction it replaced, kept here as the reference, on the scanners' own strings and on
 * random sets. Same table, same ends: the same scan, hit for hit.
 */
import { describe, expect, it } from 'vitest';
import { Automaton } from '../../shared/lint/match/automaton';
import { Matcher } from '../../shared/lint/match/matcher';
import { LITERALS_TABLE } from '../../shared/lint/match/literals-table';
import { SCANNER_EXPRESSIONS } from '../../shared/lint/scanners';
import { seeded } from '../support/random';

interface Built {
  column: Uint8Array | Uint16Array;
  next: Int32Array;
  shift: number;
  endsAt: Int32Array;
  ends: Int32Array;
}

/** The construction before D145: a dense trie, then a pass over every cell to encode it. */
function reference(strings: readonly string[]): Built {
  let columns = 1;
  const columnOf = new Map<number, number>();
  for (const s of strings)
    for (let i = 0; i < s.length; i++) if (!columnOf.has(s.charCodeAt(i))) columnOf.set(s.charCodeAt(i), columns++);
  const column = columns < 256 ? new Uint8Array(65536) : new Uint16Array(65536);
  for (const [c, col] of columnOf) column[c] = col;
  for (let c = 65; c <= 90; c++) column[c] = column[c + 32]!;
  let shift = 1;
  while (1 << shift < columns) shift++;
  const width = 1 << shift;
  let states = 1;
  for (const s of strings) states += s.length;
  const goto = new Int32Array(states * width);
  const own: number[][] = [[]];
  let count = 1;
  strings.forEach((s, id) => {
    let state = 0;
    for (let i = 0; i < s.length; i++) {
      const edge = state * width + column[s.charCodeAt(i)]!;
      if (goto[edge] === 0) {
        goto[edge] = ++count;
        own.push([]);
      }
      state = goto[edge]! - 1;
    }
    own[state]!.push(id);
  });
  const table = new Int32Array(count * width);
  const fail = new Int32Array(count);
  const ends = own;
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const row = state * width;
    if (state !== 0) {
      table.copyWithin(row, fail[state]! * width, fail[state]! * width + width);
      ends[state]!.push(...ends[fail[state]!]!);
    }
    for (let col = 0; col < width; col++) {
      const child = goto[row + col]! - 1;
      if (child < 0) continue;
      fail[child] = state === 0 ? 0 : table[row + col]!;
      table[row + col] = child;
      queue.push(child);
    }
  }
  for (let i = 0; i < table.length; i++) table[i] = (table[i]! << shift) | (ends[table[i]!]!.length > 0 ? 1 : 0);
  const endsAt = new Int32Array(count);
  const flat: number[] = [];
  for (let state = 0; state < count; state++) {
    endsAt[state] = flat.length;
    flat.push(...ends[state]!, -1);
  }
  return { column, next: table, shift, endsAt, ends: Int32Array.from(flat) };
}

const bytes = (a: Uint8Array | Uint16Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function expectSameBuild(strings: readonly string[]): void {
  const built = new Automaton(strings) as unknown as Built;
  const want = reference(strings);
  expect(built.shift).toBe(want.shift);
  expect(bytes(built.column).equals(bytes(want.column))).toBe(true);
  expect(built.next.length).toBe(want.next.length);
  expect(bytes(built.next).equals(bytes(want.next))).toBe(true);
  expect([...built.endsAt]).toEqual([...want.endsAt]);
  expect([...built.ends]).toEqual([...want.ends]);
}

describe('Automaton construction', () => {
  it("builds the reference construction's table for the scanners' literals", () => {
    const strings = (new Matcher(SCANNER_EXPRESSIONS, LITERALS_TABLE) as unknown as { automaton: Automaton }).automaton
      .strings;
    expect(strings.length).toBeGreaterThan(100);
    expectSameBuild(strings);
  });

  it('builds the reference table for random sets: shared prefixes, nested and repeated strings', () => {
    const alphabet = ['a', 'b', 'c', ' ', 'é', '\u200b', '|', 'ab', 'abc'];
    for (let seed = 1; seed <= 200; seed++) {
      const next = seeded(seed);
      const strings: string[] = [];
      const n = 1 + Math.floor(next() * 30);
      for (let i = 0; i < n; i++) {
        let s = '';
        const len = 1 + Math.floor(next() * 6);
        while (s.length < len) s += alphabet[Math.floor(next() * alphabet.length)]!;
        strings.push(s);
      }
      expectSameBuild(strings);
    }
  });
});
