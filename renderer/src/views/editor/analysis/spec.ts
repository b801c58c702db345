/** skill.spec.yml: the strict SkillSpec reader and validator, its error on the node it names. */
import { parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import { readSpecYaml, SpecError, validateSpec } from '../../../../../shared/skillspec';
import { Lines, lineRange, tokenAt } from './text';
import type { Diagnostic, QuickFix, Range } from './types';

export function specDiagnostics(text: string): Diagnostic[] {
  try {
    const spec = readSpecYaml(text, 'skill.spec.yml');
    validateSpec(spec);
    return [];
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    const range = e.position
      ? tokenAt(text, e.position.line, e.position.column)
      : ((e.field ? locateYamlField(text, e.field, e.value) : undefined) ?? lineRange(text, 1));
    return [
      {
        file: 'skill.spec.yml',
        severity: 'error',
        code: `spec/${e.kind}`,
        message: e.message,
        range,
        blocking: false,
        fixes: yamlQuoteFix(text, range),
      },
    ];
  }
}

/** `key: text with: a colon` → `key: "text with: a colon"`, when the line is exactly that shape. */
function yamlQuoteFix(text: string, range: Range): QuickFix[] {
  const line = text.split(/\r?\n/)[range.startLine - 1];
  if (line === undefined) return [];
  const m = /^(\s*(?:-\s+)?[A-Za-z_][\w-]*:\s+)([^'"\s[{|>&*!#][^#]*?:\s.*?)\s*$/.exec(line);
  if (!m) return [];
  const value = m[2]!;
  return [
    {
      title: 'Quote the value (it contains ": ")',
      edits: [
        {
          range: {
            startLine: range.startLine,
            startColumn: m[1]!.length + 1,
            endLine: range.startLine,
            endColumn: m[1]!.length + value.length + 1,
          },
          text: JSON.stringify(value),
        },
      ],
    },
  ];
}

/** A dotted field path (`routes.id`, `entry.phrases`) to the first node it names. */
function locateYamlField(text: string, field: string, value: string | undefined): Range | undefined {
  let doc;
  try {
    doc = parseDocument(text);
  } catch {
    return undefined;
  }
  const lines = new Lines(text);
  const parts = field.split('.').map((p) => p.replace(/\[\d+\]$/, ''));
  let found: YamlNode | undefined;
  const walk = (node: unknown, i: number): void => {
    if (found) return;
    if (isSeq(node)) {
      for (const item of node.items) walk(item, i);
      return;
    }
    if (!isMap(node) || i >= parts.length) return;
    for (const pair of node.items) {
      const k = pair.key as { value?: unknown; range?: [number, number, number] } | null;
      if (k?.value !== parts[i]) continue;
      if (i === parts.length - 1) {
        const v = pair.value as { value?: unknown; range?: [number, number, number] } | null;
        if (value === undefined || v?.value === value || isSeq(v)) {
          const target = v && v.range && (value === undefined || v.value === value) ? v : k;
          found = target as unknown as YamlNode;
          if (isSeq(v) && value !== undefined) {
            const hit = v.items.find((it) => (it as { value?: unknown }).value === value);
            if (hit) found = hit as YamlNode;
          }
          return;
        }
        continue;
      }
      walk(pair.value, i + 1);
    }
  };
  walk(doc.contents, 0);
  const r = (found as { range?: [number, number, number] } | undefined)?.range;
  return r ? lines.range(r[0], Math.max(1, r[1] - r[0])) : undefined;
}
