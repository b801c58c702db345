import { LineIndex } from '../ksf/text';
import type { Location } from './types';

/** Offsets to 1-based positions; a file's line index is built only once it has a finding. */
export class Spans {
  private readonly indexes = new Map<string, LineIndex>();

  at(file: string, text: string, offset: number, length: number): Location {
    let index = this.indexes.get(file);
    if (!index) this.indexes.set(file, (index = new LineIndex(text)));
    const start = index.position(offset);
    const end = index.position(offset + length);
    return { file, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }
}
