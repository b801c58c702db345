/**
 * "Save as scenario test": the spec text with one more entry under `tests:`, the rest of
 * the file left byte for byte as it was (comments, quoting, indentation). The yaml
 * library's Document API finds the `tests` sequence and its items' source ranges; the
 * new item is rendered by the library too and spliced in at the end of that sequence with
 * the indentation the file already uses. The result is checked with the engine before it
 * is handed to the editor (which validates it again, imports included).
 */
import { Document, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { Decision } from '../../../../shared/skillspec/decide';
import { checkSpecText, runScenarioTests } from '../../../../shared/skillspec/index';

export interface NewScenario {
  name: string;
  input: string;
  expect: Record<string, unknown>;
}

/** What the current decision asserts: the route, the matched rules, and the effects it produced. */
export function expectationFrom(d: Decision): Record<string, unknown> {
  const x: Record<string, unknown> = {};
  if (d.route !== null) x.route = d.route;
  x.matched_rules_exact = d.matched_rules.map((m) => m.id);
  if (d.forbid.length) x.forbid = [...d.forbid];
  if (d.elicit.length) x.elicit = [...d.elicit];
  if (d.after_success.length) x.after_success = [...d.after_success];
  return x;
}

/** A test name from the input, made unique among `taken`. */
export function scenarioName(input: string, taken: readonly string[]): string {
  const words = input.trim().replace(/\s+/g, ' ');
  const base = `playground: ${words.length > 48 ? `${words.slice(0, 47)}…` : words || 'empty input'}`;
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base} (${i})`)) return `${base} (${i})`;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** The new item as block YAML lines (no leading dash). */
function itemLines(t: NewScenario): string[] {
  const doc = new Document({ name: t.name, input: t.input, expect: t.expect });
  return doc.toString({ lineWidth: 0 }).replace(/\n$/, '').split('\n');
}

function indentItem(lines: string[], dashIndent: string, contentIndent: string): string {
  return (
    lines.map((l, i) => (i === 0 ? `${dashIndent}- ${l}` : l === '' ? '' : `${contentIndent}${l}`)).join('\n') + '\n'
  );
}

export type AppendResult = { ok: true; text: string } | { ok: false; message: string };

/** `specText` with `t` appended to `tests:`; refused when the spec does not parse or the result would not validate. */
export function appendScenario(specText: string, t: NewScenario): AppendResult {
  const doc = parseDocument(specText);
  if (doc.errors.length)
    return { ok: false, message: `the spec does not parse: ${doc.errors[0]!.message.split('\n')[0]}` };
  const root = doc.contents;
  if (!isMap(root)) return { ok: false, message: 'the spec is not a YAML mapping' };
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === 'tests');
  const lines = itemLines(t);
  let out: string;
  if (!pair) {
    const sep = specText === '' || specText.endsWith('\n') ? '' : '\n';
    out = `${specText}${sep}tests:\n${indentItem(lines, '  ', '    ')}`;
  } else {
    const value = pair.value as Node | null;
    const keyNode = pair.key as Node;
    const keyIndent = ' '.repeat(keyNode.range![0] - lineStart(specText, keyNode.range![0]));
    if (isSeq(value) && !value.flow && value.items.length > 0) {
      const first = value.items[0] as Node;
      const last = value.items[value.items.length - 1] as Node;
      // The first item's line up to its content is the file's "  - " prefix.
      const ls = lineStart(specText, first.range![0]);
      const prefix = specText.slice(ls, first.range![0]);
      const dash = prefix.indexOf('-');
      const dashIndent = dash >= 0 ? prefix.slice(0, dash) : keyIndent;
      const contentIndent = ' '.repeat(prefix.length);
      let at = last.range![1];
      if (at > 0 && specText[at - 1] !== '\n') {
        const nl = specText.indexOf('\n', at);
        at = nl === -1 ? specText.length : nl + 1;
      }
      const head = specText.slice(0, at);
      out = `${head}${head.endsWith('\n') ? '' : '\n'}${indentItem(lines, dashIndent, contentIndent)}${specText.slice(at)}`;
    } else if (
      value === null ||
      (isScalar(value) && value.value === null) ||
      (isSeq(value) && value.items.length === 0)
    ) {
      // `tests:` with nothing, or `tests: []`: the value becomes a block sequence.
      const from = value?.range ? value.range[0] : keyNode.range![1];
      const to = value?.range ? value.range[1] : keyNode.range![1];
      let start = from;
      // Keep `tests:` and drop the empty value (and the space before it).
      while (start > 0 && specText[start - 1] === ' ') start--;
      const rest = specText.slice(to);
      const block = indentItem(lines, `${keyIndent}  `, `${keyIndent}    `);
      const colon = specText.slice(0, start).endsWith(':') ? '' : ':';
      out = `${specText.slice(0, start)}${colon}\n${block}${rest.startsWith('\n') ? rest.slice(1) : rest}`;
    } else if (isSeq(value)) {
      // A flow sequence with items: rare; let the library write that one node.
      value.add(doc.createNode({ name: t.name, input: t.input, expect: t.expect }));
      value.flow = false;
      out = doc.toString({ lineWidth: 0 });
    } else {
      return { ok: false, message: '`tests` is not a list in this spec' };
    }
  }
  const check = checkSpecText(out);
  if (!check.ok) return { ok: false, message: `the new test would not validate: ${check.error.message}` };
  const run = runScenarioTests(check.value);
  const mine = run.results.filter((r) => r.name === t.name);
  if (mine.length !== 1) return { ok: false, message: 'the new test did not land in the spec as one test' };
  if (mine[0]!.failures.length)
    return { ok: false, message: `the new test would fail: ${mine[0]!.failures.join('; ')}` };
  return { ok: true, text: out };
}
