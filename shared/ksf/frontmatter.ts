import { parseDocument, isMap, isScalar } from 'yaml';
import type { Frontmatter } from './model';

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/;
const LINE_FIELD = /^([A-Za-z_-]+):\s*(.+?)\s*$/;

/** Splits a leading `---` block off a SKILL.md. `readData` parses it (bare skills only need it). */
export function splitFrontmatter(text: string, readData: boolean): { frontmatter?: Frontmatter; rest: string } {
  const m = FRONTMATTER.exec(text);
  if (!m) return { rest: text };
  const raw = m[0];
  const rest = text.slice(raw.length);
  if (!readData) return { frontmatter: { raw, data: {} }, rest };
  const inner = raw.replace(/^---\r?\n/, '').replace(/\r?\n---\r?\n?$/, '');
  return { frontmatter: readYaml(raw, inner), rest };
}

/**
 * `key: value` lines whose values YAML reads as exactly the text written: plain words (no
 * flow, anchors, comments, block indicators, or scalars YAML would retype) or quoted text
 * without escapes. For such frontmatter — most of it — the YAML parser is not needed.
 */
const SIMPLE_LINE =
  /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(?:"([^"\\]*)"|'([^']*)'|([A-Za-z][^#:'"{}[\],&*!|>%@`]*?))[ \t]*$/;
const RETYPED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

function readSimple(inner: string): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (const line of inner.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const m = SIMPLE_LINE.exec(line);
    if (!m) return undefined;
    const plain = m[4];
    if (plain !== undefined && RETYPED.test(plain)) return undefined;
    const key = m[1]!.toLowerCase();
    if (key in data) return undefined;
    data[key] = m[2] ?? m[3] ?? plain!;
  }
  return data;
}

function readYaml(raw: string, inner: string): Frontmatter {
  const simple = readSimple(inner);
  if (simple) return { raw, data: simple };
  const doc = parseDocument(inner, { uniqueKeys: true, prettyErrors: false });
  const problem = doc.errors[0];
  if (!problem && (isMap(doc.contents) || doc.contents === null)) {
    const data: Record<string, string> = {};
    if (isMap(doc.contents)) {
      for (const pair of doc.contents.items) {
        if (!isScalar(pair.key) || !isScalar(pair.value) || pair.value.value === null) continue;
        const v = pair.value;
        // A number or boolean keeps the text the author wrote (`1e3`, not `1000`).
        data[String(pair.key.value).toLowerCase()] =
          typeof v.value === 'string' || !v.range ? String(v.value) : inner.slice(v.range[0], v.range[1]);
      }
    }
    return { raw, data };
  }
  // Not YAML an agent could read either; keep the reference's forgiving line reading so
  // the skill still loads, and say so.
  const data: Record<string, string> = {};
  for (const line of inner.split(/\r?\n/)) {
    const f = LINE_FIELD.exec(line);
    if (f) data[f[1]!.toLowerCase()] = f[2]!.replace(/^["']/, '').replace(/["']$/, '');
  }
  const why = problem
    ? `${problem.message.split('\n')[0]}${problem.linePos ? ` at line ${problem.linePos[0].line + 1}` : ''}`
    : 'it is not a mapping';
  return { raw, data, yamlError: why };
}
