/**
 * A cheap nesting scan run before the YAML library: the library takes seconds on a file
 * nested a million levels deep, so absurd nesting is refused from the raw text first.
 * It only needs to be a safe over-estimate; yaml.ts enforces the exact limit afterwards.
 */

/**
 * Offset where the nesting first exceeds `limit` levels, or -1. Counts block levels by
 * indentation (plus compact `- - x` entries) and flow levels by brackets, skipping quoted
 * scalars, comments and block-scalar bodies.
 */
export function nestingBeyond(text: string, limit: number): number {
  const n = text.length;
  const indents: number[] = [];
  let flow = 0;
  let i = 0;
  let blockScalarIndent = -1;
  while (i < n) {
    // At a line start.
    let indent = 0;
    while (i + indent < n && text.charCodeAt(i + indent) === 32) indent++;
    const lineStart = i;
    i += indent;
    const c0 = text[i];
    const blank = i >= n || c0 === '\n' || c0 === '\r' || c0 === '#';
    if (blockScalarIndent !== -1) {
      if (blank || indent > blockScalarIndent) {
        i = skipLine(text, i);
        continue;
      }
      blockScalarIndent = -1;
    }
    if (blank) {
      i = skipLine(text, i);
      continue;
    }
    let valueStart = true;
    if (flow === 0) {
      while (indents.length && indents[indents.length - 1]! > indent) indents.pop();
      if (!indents.length || indents[indents.length - 1]! < indent) indents.push(indent);
    }
    let compact = 0;
    for (; i < n; i++) {
      const c = text[i]!;
      if (c === '\n') break;
      if (c === ' ' || c === '\t' || c === '\r') continue;
      if (c === '#' && (i === lineStart || /\s/.test(text[i - 1]!))) {
        i = skipLine(text, i) - 1;
        break;
      }
      if (valueStart && (c === '"' || c === "'")) {
        i = skipQuoted(text, i);
        valueStart = false;
        continue;
      }
      if (flow > 0 || (valueStart && (c === '[' || c === '{'))) {
        if (c === '[' || c === '{') {
          flow++;
          valueStart = true;
          if (indents.length + compact + flow > limit) return i;
          continue;
        }
        if (c === ']' || c === '}') {
          flow = Math.max(0, flow - 1);
          valueStart = false;
          continue;
        }
        valueStart = c === ',' || c === ':' || c === '?';
        continue;
      }
      // Block context.
      const next = text[i + 1];
      const spaced = next === undefined || next === ' ' || next === '\n' || next === '\r' || next === '\t';
      if ((c === '-' || c === '?') && valueStart && spaced) {
        if (c === '-') compact++;
        if (indents.length + compact > limit) return i;
        continue;
      }
      if (c === ':' && spaced) {
        valueStart = true;
        continue;
      }
      if (valueStart && (c === '|' || c === '>')) {
        blockScalarIndent = indent;
        i = skipLine(text, i) - 1;
        break;
      }
      valueStart = false;
    }
    if (indents.length + compact > limit) return lineStart;
    i = skipLine(text, i);
  }
  return -1;
}

/** Index just past the end of the line containing `i`. */
function skipLine(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  return nl === -1 ? text.length : nl + 1;
}

/** Index of the closing quote of the quoted scalar opening at `i` (or the end). */
function skipQuoted(text: string, i: number): number {
  const q = text[i]!;
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j]!;
    if (q === '"' && c === '\\') j++;
    else if (c === q) {
      if (q === "'" && text[j + 1] === "'") j++;
      else return j;
    }
  }
  return text.length;
}
