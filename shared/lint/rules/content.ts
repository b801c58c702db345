import type { Skill } from '../../ksf/model';
import type { Resolution } from '../../ksf/templates';
import { findInjection } from '../injection';
import { findDynamicContext } from '../safety/dynamic-context';
import { findRemoteExec } from '../safety/remote-exec';
import { findSecrets } from '../safety/secrets';
import { distinctCodePoints, findInvisible } from '../safety/visible-text';
import { scanSet, type ScanDocument, type StructuralFinding } from '../scan';
import type { Spans } from '../spans';
import type { Check, Hit, Location } from '../types';

const MAX_LISTED = 8;

interface Finding {
  readonly hit: Hit;
  readonly doc: ScanDocument;
}

/**
 * The injection heuristics and the four safety checks, over every file of the skill and
 * over the compiled body where substitution could have formed something new.
 */
export function contentChecks(skill: Skill, resolved: Resolution, spans: Spans): Check[] {
  const { documents, hidden } = scanSet(skill);
  // A prompt can complete any pattern. Artifact and lore variables insert fixed text whose
  // one trigger is a backtick (`!{{artifact.x}}` compiles to a load-time command), so for
  // them only the dynamic-context scan can find something the files do not show.
  const compiled = resolved.ok && resolved.text !== skill.body ? resolved : undefined;
  const withPrompts = compiled?.inlinedPrompt ? compiled.text : undefined;

  const checks: Check[] = [];
  const injection = injectionCheck(skill, withPrompts, spans);
  if (injection) checks.push(injection);

  const at = (f: Finding): Location => spans.at(f.doc.path, f.doc.text, f.hit.offset, f.hit.length);
  const scan = (find: (text: string) => Hit[], resolvedBody: string | undefined) => {
    const found: Finding[] = documents.flatMap((doc) => find(doc.text).map((hit) => ({ hit, doc })));
    const resolvedOnly = resolvedBody === undefined ? [] : newHits(found.map((f) => f.hit), find(resolvedBody));
    return { found, resolvedOnly };
  };

  checks.push(visibleTextCheck(scan(findInvisible, withPrompts), hidden, at));

  const patternChecks = [
    { id: 'dynamic-context', find: findDynamicContext, resolvedBody: compiled?.text, lead: 'command substitution runs when the skill loads, before the model sees it' },
    { id: 'remote-exec', find: findRemoteExec, resolvedBody: withPrompts, lead: 'download-and-execute pipeline' },
    { id: 'secrets', find: findSecrets, resolvedBody: withPrompts, lead: 'hardcoded credential' },
  ] as const;
  for (const { id, find, resolvedBody, lead } of patternChecks) {
    const { found, resolvedOnly } = scan(find, resolvedBody);
    if (found.length === 0 && resolvedOnly.length === 0) continue;
    const items = [
      ...found.map((f) => {
        const l = at(f);
        return `${f.hit.label} (${l.file}:${l.line}:${l.column})`;
      }),
      ...resolvedOnly.map((h) => `${h.label} (SKILL.md once templates are resolved)`),
    ];
    const shown = unique(items).slice(0, MAX_LISTED);
    const list = items.length > shown.length ? `${shown.join(', ')}, and ${items.length - shown.length} more` : shown.join(', ');
    checks.push({ id, status: 'fail', detail: `${lead}: ${list}`, locations: found.map(at) });
  }
  return checks;
}

/** Heuristics read what the model reads: all of SKILL.md, frontmatter included, and inlined prompts. */
function injectionCheck(skill: Skill, withPrompts: string | undefined, spans: Spans): Check | undefined {
  const raw = findInjection(skill.skillMd);
  const extra = withPrompts === undefined ? [] : newHits(raw, findInjection(withPrompts));
  if (raw.length === 0 && extra.length === 0) return undefined;
  return {
    id: 'injection',
    status: 'warn',
    detail: `heuristic match — review: ${unique([...raw, ...extra].map((h) => h.label)).join(', ')}`,
    locations: raw.map((h) => spans.at('SKILL.md', skill.skillMd, h.offset, h.length)),
  };
}

function visibleTextCheck(
  invisible: { found: Finding[]; resolvedOnly: Hit[] },
  hidden: readonly StructuralFinding[],
  at: (f: Finding) => Location,
): Check {
  if (invisible.found.length === 0 && invisible.resolvedOnly.length === 0 && hidden.length === 0) {
    return { id: 'visible-text', status: 'pass', detail: 'no hidden characters' };
  }
  const parts = hidden.map((h) => `${h.path}: ${h.message}`);
  const byFile = new Map<string, Finding[]>();
  for (const f of invisible.found) byFile.set(f.doc.path, [...(byFile.get(f.doc.path) ?? []), f]);
  for (const [file, fs] of byFile) {
    const first = at(fs[0]!);
    const cps = distinctCodePoints(fs.map((f) => f.hit));
    parts.push(`${file}:${first.line}:${first.column}: ${fs.length} run(s) of invisible characters (${cps.join(', ')}) — instructions a reviewer cannot see`);
  }
  if (invisible.resolvedOnly.length) {
    parts.push(`SKILL.md once templates are resolved: invisible characters (${distinctCodePoints(invisible.resolvedOnly).join(', ')})`);
  }
  return {
    id: 'visible-text',
    status: 'fail',
    detail: parts.join('; '),
    locations: [...hidden.map((h) => ({ file: h.path, line: 1, column: 1, endLine: 1, endColumn: 1 })), ...invisible.found.map(at)],
  };
}

/** Hits of the resolved body that no file already accounts for (same label, same text). */
function newHits(known: readonly Hit[], resolved: readonly Hit[]): Hit[] {
  const seen = new Set(known.map((h) => `${h.label}\0${h.match}`));
  return resolved.filter((h) => !seen.has(`${h.label}\0${h.match}`));
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
