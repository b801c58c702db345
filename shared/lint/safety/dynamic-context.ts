import type { Hit } from '../types';

/*
 * What Claude Code's preprocessor runs while it loads a skill or command body, read from the
 * CLI itself (SPEC.md D244): 2.1.197, the version tests/agents pins, and 2.0.77 and 1.0.128
 * before it. All three run a block opened with ```` ```! ```` anywhere up to the next ```` ``` ````
 * (`/```!\s*\n?([\s\S]*?)\n?```/g`), and an inline `` !`cmd` `` whose span may cross lines
 * (`[^`]+`); they differ in what may stand before the `!` — 1.0.128 only no word character
 * (`(?<!\w)`), 2.0.77 neither a word character nor `$`, 2.1.197 only a line start or
 * whitespace, after blanking the single-line code spans not opened right after a `!`. A
 * skill meets whichever version its user runs, so this finds what any of them runs: the
 * widest form. A command that is only whitespace runs nothing in any of them. Tildes open
 * no such block in any of them.
 */
const BANG_BACKTICK = /(?<!\w)!`([^`]+)`/g;
const BANG_FENCE = /```!\s*\n?([\s\S]*?)\n?```/g;

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
  for (const re of [BANG_BACKTICK, BANG_FENCE]) {
    if (!text.includes(re === BANG_FENCE ? '```!' : '!`')) continue;
    for (const m of text.matchAll(re))
      if (m[1]!.trim() !== '')
        hits.push({ label: m[0].slice(0, 40), offset: m.index, length: m[0].length, match: m[0] });
  }
  return hits.sort((a, b) => a.offset - b.offset);
}
