// Every bench owns one section of bench/RESULTS.md, fenced by its own begin/end markers;
// writing a section replaces just that fence (or appends it) and leaves the others alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

/** `section` must start with `begin` and end with `end`. */
export function writeResultsSection(begin, end, section) {
  const old = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, 'utf8') : '# Benchmark results\n';
  const body = section.trimEnd();
  const i = old.indexOf(begin);
  const j = old.indexOf(end, i);
  const next = i !== -1 && j > i ? old.slice(0, i) + body + old.slice(j + end.length) : `${old.trimEnd()}\n\n${body}\n`;
  writeFileSync(RESULTS_FILE, next);
}
