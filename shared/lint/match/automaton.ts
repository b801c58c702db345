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

    // The trie: `goto` rows hold child state + 1 (0 = no edge).
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

    // Breadth first: a state's row is its failure state's row with its own edges on top.
    const table = new Int32Array(count * width);
    const fail = new Int32Array(count);
    const ends: number[][] = own;
    const queue: number[] = [0];
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
    this.next = table;
    for (let i = 0; i < table.length; i++) table[i] = (table[i]! << shift) | (ends[table[i]!]!.length > 0 ? 1 : 0);
    this.endsAt = new Int32Array(count);
    const flat: number[] = [];
    for (let state = 0; state < count; state++) {
      this.endsAt[state] = flat.length;
      flat.push(...ends[state]!, -1);
    }
    this.ends = Int32Array.from(flat);
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
