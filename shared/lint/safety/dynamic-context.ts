import type { Hit } from '../types';

/*
 * What Claude Code's preprocessor runs while it loads a skill or command body, as 2.1.197 (the
 * version tests/agents pins) does it, read from the CLI itself (SPEC.md D244): a block opened
 * with ```` ```! ```` up to the next ```` ``` ````, and an inline `` !`cmd` `` at a line start or
 * after whitespace, whose span may cross lines, found after every single-line code span not
 * opened right after `!` or a backtick is blanked. A command that is only whitespace runs nothing.
 * Older releases (2.0.77, 1.0.128) ran `!` after any non-word character and blanked nothing;
 * the check follows the current one, as SPEC D244 says.
 */
const BANG_BACKTICK = /(?<=^|\s)!`([^`]+)`/gm;
const BANG_FENCE = /```!\s*\n?([\s\S]*?)\n?```/g;
const CODE_SPAN = /`[^`\n]+`/g;

/** The text with single-line code spans blanked (same length), as the preprocessor blanks them. */
function blankCodeSpans(text: string): string {
  return text.replace(CODE_SPAN, (span, at: number) => {
    const before = text[at - 1];
    return before === '!' || before === '`' ? span : `\`${' '.repeat(span.length - 2)}\``;
  });
}

/**
 * The files a host preprocesses before the model reads them: a skill's SKILL.md, the prompt
 * templates compile inlines into it, and Claude Code command files. References, scripts and
 * assets are read as they are, so a `` !`…` `` there runs nothing. Inside these files a code
 * span or fence does not protect: the preprocessor does not parse Markdown (2.1.197 blanks
 * only single-line code spans first; the older versions nothing) and runs the command even
 * there (anthropics/claude-code#87730, #24510), so such a hit still counts.
 */
const PREPROCESSED: readonly RegExp[] = [/(?:^|\/)SKILL\.md$/, /^prompts\//, /^commands\/.+\.md$/];

export function isPreprocessed(path: string): boolean {
  return PREPROCESSED.some((re) => re.test(path));
}

export function findDynamicContext(text: string): Hit[] {
  if (!text.includes('!')) return [];
  const hits: Hit[] = [];
  const push = (m: RegExpMatchArray) => {
    if (m[1]!.trim() === '') return;
    const at = m.index ?? 0;
    const match = text.slice(at, at + m[0].length);
    hits.push({ label: match.slice(0, 40), offset: at, length: m[0].length, match });
  };
  if (text.includes('```!')) for (const m of text.matchAll(BANG_FENCE)) push(m);
  if (text.includes('!`')) for (const m of blankCodeSpans(text).matchAll(BANG_BACKTICK)) push(m);
  return hits.sort((a, b) => a.offset - b.offset);
}
