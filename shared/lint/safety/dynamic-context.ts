import type { Hit } from '../types';

/** `!` followed by a one-line backtick span: Claude Code runs it while loading the skill. */
const BANG_BACKTICK = /!`[^`\n]+`/g;

/**
 * The files a host preprocesses before the model reads them: a skill's SKILL.md, the prompt
 * templates compile inlines into it, and Claude Code command files. References, scripts and
 * assets are read as they are, so a `` !`…` `` there runs nothing. Inside these files a code
 * span or fence does not protect: Claude Code's preprocessor does not parse Markdown and runs
 * the command even there (anthropics/claude-code#87730, #24510), so such a hit still counts.
 */
const PREPROCESSED: readonly RegExp[] = [/(?:^|\/)SKILL\.md$/, /^prompts\//, /^commands\/.+\.md$/];

export function isPreprocessed(path: string): boolean {
  return PREPROCESSED.some((re) => re.test(path));
}

/**
 * A fence opened with `!` (```` ```! ````): Claude Code runs the whole block as a shell
 * command while loading the skill, the block form of the inline marker.
 */
const BANG_FENCE = /^[ \t]*(`{3,}|~{3,})![^\n]*\n[^]*?(?:\n[ \t]*\1[ \t]*(?=\n|$)|$)/gm;

export function findDynamicContext(text: string): Hit[] {
  if (!text.includes('!')) return [];
  const hits: Hit[] = [];
  if (text.includes('!`'))
    for (const m of text.matchAll(BANG_BACKTICK))
      hits.push({ label: m[0].slice(0, 40), offset: m.index, length: m[0].length, match: m[0] });
  // The fence's marker ends right before its `!`.
  if (text.includes('```!') || text.includes('~~~!'))
    for (const m of text.matchAll(BANG_FENCE)) {
      const fence = m[0].trimStart();
      hits.push({
        label: fence.slice(0, 40),
        offset: m.index + m[0].length - fence.length,
        length: fence.length,
        match: fence,
      });
    }
  return hits.sort((a, b) => a.offset - b.offset);
}
