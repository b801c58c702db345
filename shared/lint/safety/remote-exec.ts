import { findAll, type Pattern } from './patterns';
import type { Hit } from '../types';

/** Download-and-execute shapes. A defensive mention still matches: reviewers read it as a command. */
const REMOTE_EXEC: readonly Pattern[] = [
  { label: 'curl|sh', re: /\b(?:curl|wget|fetch)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z|da|d)?sh\b/gi },
  { label: 'curl|interpreter', re: /\b(?:curl|wget)\b[^\n|]*\|\s*(?:python3?|node|perl|ruby)\b/gi },
  { label: 'eval $(curl …)', re: /\b(?:eval|exec)\s+["'`]?\$\((?:curl|wget|fetch)\b/gi },
  { label: 'curl|source', re: /\b(?:curl|wget|fetch)\b[^\n|]*\|\s*source\b/gi },
  { label: 'base64 -d|sh', re: /\bbase64\b[^\n|]*(?:-d|--decode)[^\n|]*\|\s*(?:ba|z)?sh\b/gi },
  {
    label: 'powershell iex(download)',
    re: /\b(?:iex|invoke-expression)\b[^\n]*\b(?:iwr|invoke-webrequest|new-object\s+net\.webclient|downloadstring)\b/gi,
  },
  {
    label: 'powershell download|iex',
    re: /\b(?:iwr|invoke-webrequest|curl|wget)\b[^\n|]*\|\s*(?:iex|invoke-expression)\b/gi,
  },
  {
    label: 'download → run',
    re: /\b(?:curl|wget)\b[^\n]*\s-[oO]\b[\s\S]{0,120}?(?:chmod\s+\+x|\.\/[\w.-]+|\b(?:ba|z)?sh\s+[\w./-]+)/gi,
  },
  { label: 'remote archive → extract', re: /\b(?:curl|wget)\b[^\n|]*\|\s*(?:tar|unzip|bsdtar)\b/gi },
];

/** Every shape above names one of these tools; one pass for them spares nine on most files. */
const TOOLS = /curl|wget|fetch|base64|iex|invoke-|iwr/i;

export function findRemoteExec(text: string): Hit[] {
  return TOOLS.test(text) ? findAll(text, REMOTE_EXEC) : [];
}
