/**
 * Aho–Corasick over a fixed set of literal strings, compiled to a dense table so a text is
 * read once, one table step per UTF-16 unit, however many strings there are. ASCII letters
 * are folded to lower case (the strings are given lower-cased); every other unit matches only
 * itself. Reports every occurrence, overlapping ones included.
 */
export class Automaton {
  /** Per UTF-16 unit: its column in the table; 0 = no string uses it. */
  private readonly column: Uint8Array | Uint16Array;
  /**
   * Row-major transitions. An entry is the next state's row offset (a multiple of the row
   * width, so bit 0 is free) with bit 0 set when that state ends a string.
   */
  private readonly next: Int32Array;
  private readonly shift: number;
  /** Per state: where its ended strings start in `ends` (lists closed by -1). */
  private readonly endsAt: Int32Array;
  private readonly ends: Int32Array;
  readonly lengths: Int32Array;

  constructor(readonly strings: readonly string[]) {
    if (strings.some((s) => s === '' || /[A-Z]/.test(s))) throw new Error('strings must be non-empty and lower-cased');
    let columns = 1;
    const columnOf = new Map<number, number>();
    for (const s of strings)
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (!columnOf.has(c)) columnOf.set(c, columns++);
      }
    const column = columns < 256 ? new Uint8Array(65536) : new Uint16Array(65536);
    for (const [c, col] of columnOf) column[c] = col;
    for (let c = 65; c <= 90; c++) column[c] = column[c + 32]!;
    this.column = column;
    let shift = 1;
    while (1 << shift < columns) shift++;
    this.shift = shift;
    const width = 1 << shift;

    // Built once per process, at start-up, in code that never gets optimised, where every
    // small array allocated early costs a young-generation collection: so only typed arrays,
    // no loop over every cell of the ~200,000-cell table, and no per-state lists (D145).
    // The trie is written into the table itself, one cell per edge holding the child's
    // number (0 = none; the root is never a child), with each state's children also linked
    // (first child, next sibling, its column) so the walk below visits edges, not cells.
    let states = 1;
    for (const s of strings) states += s.length;
    const cells = new Int32Array(states * width);
    const firstChild = new Int32Array(states).fill(-1);
    const sibling = new Int32Array(states);
    const edge = new Int32Array(states);
    // The strings a state ends itself, in the order given: a linked list through `ownNext`.
    const ownFirst = new Int32Array(states).fill(-1);
    const ownLast = new Int32Array(states).fill(-1);
    const ownNext = new Int32Array(strings.length).fill(-1);
    let count = 1;
    for (let id = 0; id < strings.length; id++) {
      const s = strings[id]!;
      let state = 0;
      for (let i = 0; i < s.length; i++) {
        const at = state * width + column[s.charCodeAt(i)]!;
        let child = cells[at]!;
        if (child === 0) {
          cells[at] = child = count++;
          edge[child] = column[s.charCodeAt(i)]!;
          sibling[child] = firstChild[state]!;
          firstChild[state] = child;
        }
        state = child;
      }
      if (ownLast[state]! < 0) ownFirst[state] = id;
      else ownNext[ownLast[state]!] = id;
      ownLast[state] = id;
    }

    // Breadth first: a state's row is its failure state's row with its own edges on top;
    // every shallower state is done by then, so that row is final and already encoded (the
    // copy replaces the row's trie cells, whose children are still linked). The strings a
    // state ends are its own, then its failure state's (recursively): only their number is
    // kept here, for the flag bit.
    const fail = new Int32Array(count);
    const endCount = new Int32Array(count);
    const queue = new Int32Array(count);
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const state = queue[head]!;
      const row = state * width;
      // The root's row keeps 0 wherever it has no edge: such a unit goes back to the root.
      if (state !== 0) cells.copyWithin(row, fail[state]! * width, fail[state]! * width + width);
      for (let child = firstChild[state]!; child >= 0; child = sibling[child]!) {
        // Before the edge is written, the cell holds where the failure row goes on that unit.
        const to = state === 0 ? 0 : cells[row + edge[child]!]! >> shift;
        fail[child] = to;
        let n = endCount[to]!;
        for (let k = ownFirst[child]!; k >= 0; k = ownNext[k]!) n++;
        endCount[child] = n;
        cells[row + edge[child]!] = (child << shift) | (n > 0 ? 1 : 0);
        queue[tail++] = child;
      }
    }
    // A view, not a copy: only the first `count` rows were ever touched, and on a VM a fresh
    // page costs ~10 µs to fault in, so the untouched tail costs nothing and a copy would.
    const table = cells.subarray(0, count * width);
    this.next = table;
    this.endsAt = new Int32Array(count);
    let total = count;
    for (let state = 0; state < count; state++) total += endCount[state]!;
    this.ends = new Int32Array(total);
    for (let state = 0, at = 0; state < count; state++) {
      this.endsAt[state] = at;
      for (let on = state; ; on = fail[on]!) {
        for (let k = ownFirst[on]!; k >= 0; k = ownNext[k]!) this.ends[at++] = k;
        if (on === 0) break;
      }
      this.ends[at++] = -1;
    }
    this.lengths = Int32Array.from(strings, (s) => s.length);
  }

  /**
   * Reads `text` once. `seen[id]` is set for every string that occurs; for the strings marked
   * in `track`, each occurrence's start offset is appended to `hits` as the pair (id, start).
   */
  scan(text: string, seen: Uint8Array, track: Uint8Array, hits: number[]): void {
    const { column, shift, next, endsAt, ends, lengths } = this;
    let entry = 0;
    for (let i = 0, n = text.length; i < n; i++) {
      entry = next[(entry & ~1) | column[text.charCodeAt(i)]!]!;
      if ((entry & 1) === 0) continue;
      for (let k = endsAt[entry >> shift]!; ends[k]! >= 0; k++) {
        const id = ends[k]!;
        seen[id] = 1;
        if (track[id] === 1) hits.push(id, i - lengths[id]! + 1);
      }
    }
  }
}
