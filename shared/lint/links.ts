import { plural } from '../text/format';
import type { Skill } from '../ksf/model';
import { splitCode } from '../ksf/templates';
import { decodeUtf8 } from '../ksf/text';
import type { Spans } from './spans';
import type { Check, Location } from './types';

const MAX_LISTED = 8;
/** `[text](target)` and `![alt](target)`; the target up to whitespace or the closing parenthesis. */
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;
/** A scheme (`https:`, `mailto:`), an anchor, an absolute path, a home path or a template: not a file of the folder. */
const NOT_RELATIVE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|#|\/|~|\{\{|\$)/;

/** SKILL.md and prompts/*.md: what the agent reads and follows links from. */
function linkingFiles(skill: Skill): { path: string; text: string }[] {
  const out = [{ path: 'SKILL.md', text: skill.skillMd }];
  for (const e of skill.tree.entries) {
    if (e.kind !== 'file' || !/^prompts\/[^/]+\.md$/.test(e.path)) continue;
    const d = decodeUtf8(e.bytes);
    if (d.ok) out.push({ path: e.path, text: d.value.text });
  }
  return out;
}

/** `target` resolved against the folder of `from`, or undefined when it leaves the skill folder. */
function resolveIn(from: string, target: string): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

/**
 * `links` (SPEC §9.1): a relative link in SKILL.md or a prompt to a file the skill folder does
 * not hold — the agent would follow it to nothing. Links inside code are not links. Reported
 * only for skills that link to files at all.
 */
export function linksCheck(skill: Skill, spans: Spans): Check | undefined {
  const present = new Set(skill.tree.entries.map((e) => e.path));
  let relative = 0;
  const missing: Location[] = [];
  const names: string[] = [];
  for (const file of linkingFiles(skill)) {
    // Every link spells `](`; most files have none, and need not be split.
    if (!file.text.includes('](')) continue;
    for (const part of splitCode(file.text)) {
      if (part.code) continue;
      LINK.lastIndex = 0;
      for (let m = LINK.exec(part.text); m; m = LINK.exec(part.text)) {
        const raw = m[1]!;
        if (NOT_RELATIVE.test(raw)) continue;
        let target = raw.replace(/[#?].*$/, '');
        try {
          target = decodeURIComponent(target);
        } catch {
          // keep it as written
        }
        if (target === '') continue;
        relative++;
        const path = resolveIn(file.path, target);
        if (path !== undefined && (path === '' || present.has(path))) continue;
        const at = spans.at(file.path, file.text, part.offset + m.index + m[0].indexOf(raw), raw.length);
        missing.push(at);
        names.push(`${raw} (${at.file}:${at.line})`);
      }
    }
  }
  if (relative === 0) return undefined;
  if (missing.length === 0)
    return { id: 'links', status: 'pass', detail: `${plural(relative, 'relative link')}, all in the folder` };
  const shown = names.slice(0, MAX_LISTED).join(', ');
  const more = names.length > MAX_LISTED ? `, and ${names.length - MAX_LISTED} more` : '';
  return {
    id: 'links',
    status: 'warn',
    detail: `links to ${names.length === 1 ? 'a file' : 'files'} not in the skill folder: ${shown}${more}`,
    locations: missing,
  };
}
