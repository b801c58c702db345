import { LITERALS_TABLE } from './match/literals-table';
import { expressionsOf, lazyMatcher, type TextScan } from './match/matcher';
import type { Pattern } from './safety/patterns';
import type { Hit } from './types';

/** Phrases that try to steer the model against its user. Heuristic: a warning to review, never a block. */
export const INJECTION: readonly Pattern[] = [
  {
    label: 'override of prior instructions',
    re: /ignore\s+(?:all\s+)?(?:your\s+)?(?:previous|prior|above)\s+instructions/gi,
  },
  { label: 'disregard-directive', re: /disregard\s+(?:the\s+)?(?:above|previous|prior|system)/gi },
  { label: 'role reassignment', re: /you\s+are\s+now\s+(?:a|an|the)\b/gi },
  { label: 'conceal-from-user', re: /do\s+not\s+(?:tell|inform|reveal\s+to)\s+the\s+user/gi },
  { label: 'data-exfiltration shape', re: /exfiltrat|curl\s+[^|]*\|\s*(?:sh|bash)|send\s+.*\s+to\s+https?:\/\//gi },
  {
    label: 'output-suppression directive',
    re: /(?:always|automatically)\s+(?:report|say|respond|mark)\s+(?:it\s+)?(?:ok|success|successful|passed|clean|as\s+safe)|(?:remove|suppress|hide)\s+(?:the\s+|all\s+)?(?:warnings|findings|errors)/gi,
  },
  {
    label: 'auto-run / no-consent directive',
    re: /(?:automatically|silently)\s+(?:install|run|execute)|without\s+(?:asking|prompting|confirmation|the\s+user'?s?\s+(?:consent|approval|permission))/gi,
  },
  {
    label: 'bulk-credential harvesting',
    re: /(?:collect|gather|dump|harvest)\s+(?:all\s+)?(?:the\s+)?(?:passwords|credentials|secrets|api\s*keys|ssh\s+keys|the\s+database)/gi,
  },
  {
    label: 'hidden directive in HTML comment',
    re: /<!--(?:(?!-->)[\s\S]){0,400}?(?:ignore\s+(?:all\s+|the\s+)?(?:previous|prior|above)\s+instructions|you\s+are\s+now\b|disregard\s+(?:the\s+)?(?:above|previous|system))(?:(?!-->)[\s\S])*?-->/gi,
  },
];

export const INJECTION_EXPRESSIONS: readonly RegExp[] = expressionsOf(INJECTION);
const own = lazyMatcher(() => INJECTION_EXPRESSIONS, LITERALS_TABLE);

/** `scan`: the text's one-pass scan, when the caller already has one. */
export function findInjection(text: string, scan: TextScan = own().scan(text)): Hit[] {
  return scan.findAll(INJECTION, undefined, 20);
}
