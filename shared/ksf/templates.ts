import { ok, type Result, type SkillsmithError } from '../result';

const VARIABLE = /\{\{\s*([a-z]+)\.([a-z0-9-]+)\s*\}\}/g;
const LEFTOVER = /\{\{[\s\S]*?\}\}/;

/** What a `{{prompt.x}}` lookup found. */
export type PromptLookup =
  | { kind: 'text'; text: string }
  | { kind: 'missing'; path: string }
  | { kind: 'symlink'; path: string }
  | { kind: 'unreadable'; path: string; why: string };

/** `offset`/`length` locate the offending text in the unresolved body when it is there. */
export interface TemplateError extends SkillsmithError {
  readonly offset?: number;
  readonly length?: number;
}

/** `inlinedPrompt`: a prompt file's text is in `text` (artifact and lore variables insert fixed text). */
export type Resolution = Result<{ text: string; inlinedPrompt: boolean }, TemplateError>;

/**
 * Compile-time substitution of the three namespaces. Inlined prompt text is not resolved
 * again, so a variable inside a prompt file surfaces as a leftover — the reference does
 * the same, and it keeps resolution a single pass.
 */
export function resolveTemplates(body: string, skillName: string, prompt: (name: string) => PromptLookup): Resolution {
  if (!body.includes('{{')) return ok({ text: body, inlinedPrompt: false });
  // Code is quoted text: braces in a fence or a code span are literal, never a template.
  let text = '';
  let inlinedPrompt = false;
  for (const part of splitCode(body)) {
    if (part.code) {
      text += part.text;
      continue;
    }
    const r = resolveProse(part.text, part.offset, skillName, prompt);
    if (!r.ok) return r;
    text += r.value.text;
    inlinedPrompt ||= r.value.inlinedPrompt;
  }
  return ok({ text, inlinedPrompt });
}

/** Fenced blocks (``` or ~~~, to the matching fence or the end) and inline code spans, as parts of `body` in order. */
export function splitCode(body: string): { text: string; offset: number; code: boolean }[] {
  const parts: { text: string; offset: number; code: boolean }[] = [];
  let prose = 0;
  const flush = (to: number): void => {
    if (to > prose) parts.push({ text: body.slice(prose, to), offset: prose, code: false });
  };
  const FENCE = /^( {0,3})(`{3,}|~{3,})[^\n]*$/gm;
  const SPAN = /(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g;
  const spans = (from: number, to: number): void => {
    SPAN.lastIndex = from;
    for (let m = SPAN.exec(body); m && m.index < to; m = SPAN.exec(body)) {
      if (m.index + m[0].length > to) break;
      flush(m.index);
      parts.push({ text: m[0], offset: m.index, code: true });
      prose = m.index + m[0].length;
    }
  };
  FENCE.lastIndex = 0;
  for (let open = FENCE.exec(body); open; open = FENCE.exec(body)) {
    const marker = open[2]!;
    const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'gm');
    close.lastIndex = open.index + open[0].length;
    const c = close.exec(body);
    const end = c ? c.index + c[0].length : body.length;
    spans(prose, open.index);
    flush(open.index);
    parts.push({ text: body.slice(open.index, end), offset: open.index, code: true });
    prose = end;
    FENCE.lastIndex = end;
  }
  spans(prose, body.length);
  flush(body.length);
  return parts;
}

/** One prose stretch of the body; `base` is its offset in the whole body (for error locations). */
function resolveProse(
  body: string,
  base: number,
  skillName: string,
  prompt: (name: string) => PromptLookup,
): Resolution {
  let failure: TemplateError | undefined;
  let inlinedPrompt = false;
  if (!body.includes('{{')) return ok({ text: body, inlinedPrompt });
  const text = body.replace(VARIABLE, (match: string, ns: string, name: string, local: number) => {
    const offset = base + local;
    if (failure) return match;
    switch (ns) {
      case 'artifact':
        return `\`.kitbash/artifacts/${name}.json\``;
      case 'lore':
        return `the project knowledge under \`.kitbash/lore/${name}/\` (skip silently if absent)`;
      case 'prompt': {
        const found = prompt(name);
        if (found.kind === 'text') {
          inlinedPrompt = true;
          return found.text.trim();
        }
        const why =
          found.kind === 'missing'
            ? `template references missing ${found.path}`
            : found.kind === 'symlink'
              ? `template references ${found.path}, which is a symlink — not followed`
              : `${found.path}: ${found.why}`;
        failure = templateError(`${skillName}: ${why}`, { offset, length: match.length });
        return match;
      }
      default:
        failure = templateError(`${skillName}: unknown template variable ${match}`, { offset, length: match.length });
        return match;
    }
  });
  if (failure) return { ok: false, error: failure };
  const left = LEFTOVER.exec(text);
  if (left) {
    const shown = left[0].trim();
    const at = body.indexOf(left[0]) + base;
    const message = `${skillName}: unresolved template variable "${shown}" — unknown namespace or malformed (SPEC.md §7.4)`;
    return { ok: false, error: templateError(message, at >= base ? { offset: at, length: left[0].length } : {}) };
  }
  return ok({ text, inlinedPrompt });
}

function templateError(message: string, span: { offset?: number; length?: number }): TemplateError {
  return { code: 'invalid-input', message, ...span };
}
