/**
 * What a SKILL.md can make an agent do besides being read: the frontmatter keys an agent
 * acts on (hooks it runs, tools it pre-approves or removes, a forked context, a model) and
 * the body's dynamic-context commands. Read from the text as an agent receives it, with the
 * YAML parser (the frontmatter's scalar reading in ./frontmatter.ts skips maps and lists,
 * which is where hooks and tool lists live).
 */
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { findDynamicContext } from '../lint/safety/dynamic-context';
import { splitFrontmatter } from './frontmatter';

/** The frontmatter keys that grant or shape what the agent does, in review order. */
export const POWER_KEYS = [
  'hooks',
  'allowed-tools',
  'disallowed-tools',
  'context',
  'agent',
  'model',
  'disable-model-invocation',
  'user-invocable',
] as const;
export type PowerKey = (typeof POWER_KEYS)[number];

/** One command the agent runs on an event (Claude Code's `hooks:` frontmatter). */
export interface HookPower {
  readonly event: string;
  /** The tool pattern the hook is limited to; absent: every occurrence of the event. */
  readonly matcher?: string;
  /** `command` (a shell command), or what else the entry says it is. */
  readonly type: string;
  /** The exact command (or prompt, or URL) as parsed. */
  readonly command: string;
  /** Offset in the SKILL.md text where the value is written, for findings. */
  readonly offset: number;
}

/** One dynamic-context command: run by the agent when it loads the skill, its output put in the text. */
export interface DynamicContextPower {
  /** The marker as written (`` !`git status` `` or the opening of a ```` ```! ```` fence). */
  readonly text: string;
  /** The command inside it. */
  readonly command: string;
  readonly offset: number;
}

export interface SkillPowers {
  readonly hooks: readonly HookPower[];
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  /** Scalar keys as written (`context: fork`, `model: opus`, …), only those present. */
  readonly settings: readonly { readonly key: PowerKey; readonly value: string }[];
  readonly dynamicContext: readonly DynamicContextPower[];
}

export const NO_POWERS: SkillPowers = {
  hooks: [],
  allowedTools: [],
  disallowedTools: [],
  settings: [],
  dynamicContext: [],
};

/**
 * A tool list as written: a YAML list, or a comma- (Claude Code) or space-separated (Agent
 * Skills) string; a comma anywhere means commas separate (`Bash(git diff *)` has spaces).
 */
export function toolList(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value.map((v) => String(v))
    : typeof value === 'string'
      ? value.includes(',')
        ? value.split(',')
        : value.split(/\s+/)
      : value === undefined || value === null
        ? []
        : [String(value)];
  return [...new Set(items.map((t) => t.trim()).filter((t) => t !== ''))];
}

/** The text of a YAML node as its value reads (a map or list as one line of JSON). */
function textOf(node: unknown): string {
  if (isScalar(node)) return String(node.value);
  const js = (node as { toJSON?: () => unknown } | null)?.toJSON?.() ?? node;
  return typeof js === 'string' ? js : JSON.stringify(js);
}

function offsetOf(node: unknown, base: number): number {
  const r = (node as Node | null)?.range;
  return r ? base + r[0] : base;
}

/**
 * Claude Code's shape, `hooks: { <Event>: [{ matcher?, hooks: [{ type, command }] }] }`.
 * Anything else under an event is still listed, as written, so nothing it holds goes unseen.
 */
function readHooks(node: unknown, base: number): HookPower[] {
  const out: HookPower[] = [];
  if (!isMap(node)) {
    if (node !== null && node !== undefined)
      out.push({ event: '(not a map)', type: 'unrecognised', command: textOf(node), offset: offsetOf(node, base) });
    return out;
  }
  for (const pair of node.items) {
    const event = textOf(pair.key);
    const groups = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (const group of groups) {
      const matcherNode = isMap(group) ? group.get('matcher', true) : undefined;
      const matcher = matcherNode === undefined || matcherNode === null ? undefined : textOf(matcherNode);
      const inner = isMap(group) ? group.get('hooks', true) : undefined;
      const entries = isSeq(inner) ? inner.items : inner !== undefined ? [inner] : [];
      if (entries.length === 0) {
        out.push({ event, type: 'unrecognised', command: textOf(group), offset: offsetOf(group, base) });
        continue;
      }
      for (const entry of entries) {
        if (!isMap(entry)) {
          out.push({
            event,
            ...(matcher !== undefined ? { matcher } : {}),
            type: 'unrecognised',
            command: textOf(entry),
            offset: offsetOf(entry, base),
          });
          continue;
        }
        const typeNode = entry.get('type', true);
        const type = typeNode === undefined ? 'command' : textOf(typeNode);
        const valueNode = entry.get('command', true) ?? entry.get('prompt', true) ?? entry.get('url', true) ?? entry;
        out.push({
          event,
          ...(matcher !== undefined ? { matcher } : {}),
          type,
          command: textOf(valueNode),
          offset: offsetOf(valueNode, base),
        });
      }
    }
  }
  return out;
}

/** The command inside a dynamic-context marker: the backtick span, or a `!` fence's lines. */
function commandOf(marker: string): string {
  if (marker.startsWith('!`')) return marker.slice(2, -1);
  const lines = marker.split('\n');
  const fence = /^[ \t]*(`{3,}|~{3,})/.exec(lines[0] ?? '')?.[1] ?? '```';
  const last = lines.length > 1 && lines[lines.length - 1]!.trim() === fence ? -1 : undefined;
  return lines.slice(1, last).join('\n');
}

/**
 * The powers a SKILL.md text carries. Frontmatter that is not YAML gives none of its keys
 * (an agent cannot read it either); the dynamic-context commands are read from the body.
 */
export function skillPowers(skillMd: string): SkillPowers {
  const text = skillMd.startsWith('\uFEFF') ? skillMd.slice(1) : skillMd;
  const { frontmatter, rest } = splitFrontmatter(text, false);
  const bodyStart = text.length - rest.length;
  const dynamicContext = findDynamicContext(rest).map((h) => ({
    text: h.match.split('\n')[0]!,
    command: commandOf(h.match),
    offset: bodyStart + h.offset,
  }));
  if (!frontmatter) return { ...NO_POWERS, dynamicContext };
  const open = /^---\r?\n/.exec(frontmatter.raw)![0].length;
  const inner = frontmatter.raw.slice(open).replace(/\r?\n---\r?\n?$/, '');
  const doc = parseDocument(inner, { prettyErrors: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { ...NO_POWERS, dynamicContext };
  const map = doc.contents;
  // Keys are matched as the frontmatter reader does (case-insensitively).
  const find = (key: string): unknown => map.items.find((p) => textOf(p.key).toLowerCase() === key)?.value;
  const js = (n: unknown): unknown => (isScalar(n) ? n.value : ((n as { toJSON?: () => unknown })?.toJSON?.() ?? n));
  const settings: { key: PowerKey; value: string }[] = [];
  for (const key of POWER_KEYS) {
    if (key === 'hooks' || key === 'allowed-tools' || key === 'disallowed-tools') continue;
    const n = find(key);
    if (n !== undefined && n !== null && !(isScalar(n) && n.value === null)) settings.push({ key, value: textOf(n) });
  }
  return {
    hooks: readHooks(find('hooks'), open),
    allowedTools: toolList(js(find('allowed-tools'))),
    disallowedTools: toolList(js(find('disallowed-tools'))),
    settings,
    dynamicContext,
  };
}
