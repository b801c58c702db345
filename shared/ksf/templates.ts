const VARIABLE = /\{\{\s*([a-z]+)\.([a-z0-9-]+)\s*\}\}/g;
const LEFTOVER = /\{\{[\s\S]*?\}\}/;

/** What a `{{prompt.x}}` lookup found. */
export type PromptLookup =
  | { kind: 'text'; text: string }
  | { kind: 'missing'; path: string }
  | { kind: 'symlink'; path: string }
  | { kind: 'unreadable'; path: string; why: string };

export type Resolution =
  /** `inlinedPrompt`: a prompt file's text is in `text` (artifact and lore variables insert fixed text). */
  | { ok: true; text: string; inlinedPrompt: boolean }
  /** `offset`/`length` locate the offending text in the unresolved body when it is there. */
  | { ok: false; message: string; offset?: number; length?: number };

/**
 * Compile-time substitution of the three namespaces. Inlined prompt text is not resolved
 * again, so a variable inside a prompt file surfaces as a leftover — the reference does
 * the same, and it keeps resolution a single pass.
 */
export function resolveTemplates(body: string, skillName: string, prompt: (name: string) => PromptLookup): Resolution {
  let failure: Resolution | undefined;
  let inlinedPrompt = false;
  if (!body.includes('{{')) return { ok: true, text: body, inlinedPrompt };
  const text = body.replace(VARIABLE, (match: string, ns: string, name: string, offset: number) => {
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
        failure = { ok: false, message: `${skillName}: ${why}`, offset, length: match.length };
        return match;
      }
      default:
        failure = { ok: false, message: `${skillName}: unknown template variable ${match}`, offset, length: match.length };
        return match;
    }
  });
  if (failure) return failure;
  const left = LEFTOVER.exec(text);
  if (left) {
    const shown = left[0].trim();
    const at = body.indexOf(left[0]);
    return {
      ok: false,
      message: `${skillName}: unresolved template variable "${shown}" — unknown namespace or malformed (SPEC.md §7.4)`,
      ...(at >= 0 ? { offset: at, length: left[0].length } : {}),
    };
  }
  return { ok: true, text, inlinedPrompt };
}
