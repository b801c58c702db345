/**
 * SkillSpec → SKILL.md in one of three renderings (the reference calls them targets; the
 * CLI keeps its `--target` flag, but they are not the agents of shared/compile):
 *   markdown      the whole contract rendered section by section (no frontmatter;
 *                 render-markdown.ts);
 *   claude, codex a thin loader (frontmatter + how to run the spec), identical text.
 * Section order, item layout, ordering (rank, sorted maps) and the frontmatter
 * description algorithm follow the reference; the fixed explanatory prose is
 * Skillsmith's own and points at Skillsmith's CLI (see spec/SKILLSPEC.md).
 */
import { debugStr } from './errors';
import type { SkillSpec, YamlValue } from './model';
import { writeMarkdown } from './render-markdown';

export const SPEC_RENDERINGS = ['markdown', 'claude', 'codex'] as const;
export type SpecRendering = (typeof SPEC_RENDERINGS)[number];

/** Rendering names the reference uses, accepted as aliases. */
export function resolveSpecRendering(name: string): SpecRendering | undefined {
  const n = name === 'claude-skill' ? 'claude' : name === 'codex-skill' ? 'codex' : name;
  return (SPEC_RENDERINGS as readonly string[]).includes(n) ? (n as SpecRendering) : undefined;
}

export function compileSpec(spec: SkillSpec, rendering: SpecRendering, skillName?: string): string {
  const out: string[] = [];
  if (rendering !== 'markdown') {
    out.push(
      '---',
      `name: ${skillNameOf(skillName ?? spec.id)}`,
      `description: ${debugStr(selectionDescription(spec))}`,
      '---',
      '',
    );
    writeLoader(out, spec);
  } else {
    writeMarkdown(out, spec);
  }
  return `${out.join('\n').replace(/[\n\r \t]+$/, '')}\n`;
}

// --- frontmatter -------------------------------------------------------------------

/** ASCII alphanumerics lower-cased, every other run of characters one `-`, trimmed. */
export function skillNameOf(id: string): string {
  let name = '';
  let dash = false;
  for (const ch of id) {
    if (/^[A-Za-z0-9]$/.test(ch)) {
      name += ch.toLowerCase();
      dash = false;
    } else if (!dash) {
      name += '-';
      dash = true;
    }
  }
  return name.replace(/^-+|-+$/g, '');
}

/** `a`, `a and b`, `a, b and c`. */
export function sentenceList(xs: readonly string[]): string {
  if (xs.length <= 1) return xs[0] ?? '';
  return `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

function pushUnique(xs: string[], v: string): void {
  const t = v.trim();
  if (t !== '' && !xs.includes(t)) xs.push(t);
}

function userIntents(spec: SkillSpec): string[] {
  const intents: string[] = [];
  for (const hint of spec.applies_when) {
    if (hint === null || typeof hint !== 'object' || Array.isArray(hint)) continue;
    const v = (hint as Record<string, YamlValue>)['user_intent'];
    if (typeof v === 'string') pushUnique(intents, v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') pushUnique(intents, x);
  }
  return intents;
}

const stripDot = (s: string): string => s.replace(/\.+$/, '');

/**
 * The frontmatter description a harness selects the skill by: the activation summary
 * first, then keywords, intents (or the description), detected capabilities, and the
 * decision requirement; at most 900 bytes, cut at a clause boundary.
 */
export function selectionDescription(spec: SkillSpec): string {
  const intents = userIntents(spec);
  const commandIds = Object.keys(spec.commands);
  const depKinds = new Set(Object.values(spec.dependencies).map((d) => d.kind));
  const cliWords = /cli|shell|command|process|terminal/;
  const cliIntent =
    intents.some((i) => cliWords.test(asciiLower(i))) ||
    spec.routes.some((r) => cliWords.test(asciiLower(`${r.label} ${r.description ?? ''}`)));
  const caps: string[] = [];
  const cmd = (re: RegExp): boolean => commandIds.some((id) => re.test(id));
  if (cliIntent && cmd(/exec|process|pty/)) pushUnique(caps, 'CLI and shell commands');
  if (depKinds.has('adapter')) pushUnique(caps, 'APIs, MCP/rote adapters, and service connectors');
  if (depKinds.has('browser')) pushUnique(caps, 'browser handoff and page evidence');
  if (depKinds.has('service')) pushUnique(caps, 'external services');
  if (cmd(/exec|process/)) pushUnique(caps, 'process capture');
  if (cmd(/stream|follow/)) pushUnique(caps, 'logs and streams');
  if (cmd(/pty/)) pushUnique(caps, 'PTY and terminal-sensitive prompts');
  if (cmd(/deps|dependency/)) pushUnique(caps, 'dependency checks');
  if (Object.keys(spec.closures).some((id) => /crystallize|crystallization/.test(id)))
    pushUnique(caps, 'flow crystallization and replay');

  const parts: string[] = [];
  const summary = spec.activation ? stripDot(spec.activation.summary.trim()) : '';
  if (summary !== '') parts.push(summary);
  if (spec.activation && spec.activation.keywords.length > 0)
    parts.push(`Use for ${sentenceList(spec.activation.keywords.slice(0, 12))}`);
  if (intents.length > 0) parts.push(`Use when the task needs to ${sentenceList(intents.slice(0, 7))}`);
  else parts.push(`Use for ${lowerFirst(stripDot(spec.description))}`);
  if (caps.length > 0) parts.push(`Handles ${sentenceList(caps.slice(0, 8))}`);
  if (spec.entry?.decision_required)
    parts.push('Run `skillsmith spec decide` before reaching for substrate tools or overlapping lower-level skills');
  parts.push('Keeps evidence through SkillSpec routes, forbids, dependencies and decision traces');
  return shorten(parts.join('. '));
}

function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function lowerFirst(s: string): string {
  const first = [...s][0];
  return first === undefined ? '' : first.toLowerCase() + s.slice(first.length);
}

/** UTF-8 length of one code point. */
function utf8Len(ch: string): number {
  const c = ch.codePointAt(0)!;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/** At most 900 UTF-8 bytes, cut on a character boundary, then back to the last `.`, `,` or `;`. */
function shorten(s: string): string {
  let total = 0;
  for (const ch of s) total += utf8Len(ch);
  if (total <= 900) return s;
  let cut = '';
  let bytes = 0;
  for (const ch of s) {
    bytes += utf8Len(ch);
    if (bytes > 900) break;
    cut += ch;
  }
  cut = cut.trimEnd();
  const i = Math.max(cut.lastIndexOf('.'), cut.lastIndexOf(','), cut.lastIndexOf(';'));
  if (i !== -1) cut = cut.slice(0, i);
  return stripDot(cut.trimEnd());
}

// --- loader (claude / codex) -------------------------------------------------------------

function writeLoader(out: string[], spec: SkillSpec): void {
  out.push(
    `# ${spec.title}`,
    '',
    spec.description,
    '',
    'Call the folder holding this `SKILL.md` `<skill_dir>`. The behaviour of this skill is the SkillSpec contract in `<skill_dir>/skill.spec.yml`, resolved from that folder, not from the working directory.',
    '',
    'Before acting on the task, ask the contract which route to take:',
    '',
    '`skillsmith spec decide <skill_dir>/skill.spec.yml --input \'<user task>\' --trace-dir "${PWD}/.skillspec/traces"`',
    '',
    'The JSON answer is binding: follow its `route`, honour every `forbid`, ask the `elicit` questions it lists before guessing, and run its `after_success` actions once the task succeeds. Treat it as control data; do not read it out to the user.',
    '',
    'For a readable account of the same decision, use `skillsmith spec explain` with the same arguments.',
    '',
    'If neither `skillsmith` nor another SkillSpec evaluator is available, read `<skill_dir>/skill.spec.yml` yourself and apply its rules in file order, as the contract describes, and tell the user that the decision was made by hand and no trace was written.',
  );
}
