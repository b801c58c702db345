import type { Hit } from '../types';

/** `!` followed by a one-line backtick span: Claude Code runs it while loading the skill. */
const BANG_BACKTICK = /!`[^`\n]+`/g;

export function findDynamicContext(text: string): Hit[] {
  if (!text.includes('!`')) return [];
  return [...text.matchAll(BANG_BACKTICK)].map((m) => ({ label: m[0].slice(0, 40), offset: m.index, length: m[0].length, match: m[0] }));
}
