import { plural } from '../../text/format';
import type { Skill } from '../../ksf/model';
import type { Resolution } from '../../ksf/templates';
import { findInjection } from '../injection';
import type { TextScan } from '../match/matcher';
import { findDynamicContext, isPreprocessed } from '../safety/dynamic-context';
import { downloadThenRun, findRemoteExec } from '../safety/remote-exec';
import { textKind } from '../safety/remote-exec-code';
import { findSecrets } from '../safety/secrets';
import { skillPowers } from '../../ksf/powers';
import { distinctCodePoints, findInvisible, isHarmlessRun, isProse } from '../safety/visible-text';
import { scannerMatcher as matcher } from '../scanners';
import { scanSet, type ScanDocument, type StructuralFinding } from '../scan';
import type { Spans } from '../spans';
import type { Check, Hit, Location } from '../types';
import { escapeTerminal } from '../../terminal/escape';

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
  const compiled = resolved.ok && resolved.value.text !== skill.body ? resolved.value : undefined;
  const withPrompts = compiled?.inlinedPrompt ? compiled.text : undefined;

  // Each text is scanned once, when a check first reads it.
  const scans = new Map<ScanDocument, TextScan>();
  const scanOf = (doc: ScanDocument): TextScan => {
    let s = scans.get(doc);
    if (!s) scans.set(doc, (s = matcher().scan(doc.text)));
    return s;
  };
  let resolvedScan: TextScan | undefined;
  const scanResolved = (text: string): TextScan =>
    resolvedScan?.text === text ? resolvedScan : (resolvedScan = matcher().scan(text));

  const checks: Check[] = [];
  const skillDoc = documents.find((d) => d.path === 'SKILL.md' && d.text === skill.skillMd);
  const injection = injectionCheck(skill, withPrompts, spans, skillDoc ? scanOf(skillDoc) : undefined, scanResolved);
  if (injection) checks.push(injection);

  const at = (f: Finding): Location => spans.at(f.doc.path, f.doc.text, f.hit.offset, f.hit.length);
  const scan = (
    find: (text: string, scan: TextScan, path: string) => Hit[],
    resolvedBody: string | undefined,
    applies: (path: string) => boolean = () => true,
  ) => {
    const found: Finding[] = documents
      .filter((doc) => applies(doc.path))
      .flatMap((doc) => find(doc.text, scanOf(doc), doc.path).map((hit) => ({ hit, doc })));
    const resolvedOnly =
      resolvedBody === undefined
        ? []
        : newHits(
            found.map((f) => f.hit),
            find(resolvedBody, scanResolved(resolvedBody), 'SKILL.md'),
          );
    return { found, resolvedOnly };
  };

  checks.push(visibleTextCheck(scan(findInvisible, withPrompts), withPrompts, hidden, at));

  // A file fetched in one document and run in another: found only by reading them together.
  const byPath = new Map(documents.map((d) => [d.path, d]));
  const crossFile: Finding[] = downloadThenRun(
    documents.map((d) => ({ ...d, scan: scanOf(d), kind: textKind(d.path, d.text) })),
  )
    .filter((f) => f.from !== f.path)
    .map((f) => ({
      hit: { ...f.hit, label: `download → run (fetched in ${escapeTerminal(f.from)})` },
      doc: byPath.get(f.path)!,
    }));

  // A hook's command is run by the agent as a shell command: it gets the checks a script
  // gets, read as YAML gives it (a folded or escaped command is one line only once parsed).
  const skillMdDoc = documents.find((d) => d.path === 'SKILL.md');
  const hooks = skillMdDoc ? skillPowers(skillMdDoc.text).hooks.filter((h) => h.type === 'command') : [];
  const hookFindings = (
    find: (text: string, scan: TextScan, path: string) => Hit[],
    known: readonly Finding[],
  ): Finding[] => {
    if (!skillMdDoc) return [];
    const seen = known.filter((f) => f.doc === skillMdDoc).map((f) => f.hit);
    return hooks.flatMap((h) =>
      // Read as 'other' (every line shape): a hook is one command line, with no prose to leave out.
      newHits(seen, find(h.command, matcher().scan(h.command), '')).map((hit) => ({
        hit: {
          ...hit,
          label: `hook ${escapeTerminal(h.event)}: ${hit.label}`,
          offset: h.offset,
          length: Math.max(1, Math.min(h.command.length, skillMdDoc.text.length - h.offset)),
        },
        doc: skillMdDoc,
      })),
    );
  };

  const patternChecks = [
    {
      id: 'dynamic-context',
      find: findDynamicContext,
      resolvedBody: compiled?.text,
      applies: isPreprocessed,
      extra: [],
      lead: 'command substitution runs when the skill loads, before the model sees it',
    },
    {
      id: 'remote-exec',
      find: (text: string, scan: TextScan, path: string) => findRemoteExec(text, scan, textKind(path, text)),
      resolvedBody: withPrompts,
      applies: undefined,
      extra: crossFile,
      lead: 'download-and-execute pipeline',
    },
    {
      id: 'secrets',
      find: findSecrets,
      resolvedBody: withPrompts,
      applies: undefined,
      extra: [],
      lead: 'hardcoded credential',
    },
  ] as const;
  for (const { id, find, resolvedBody, applies, extra, lead } of patternChecks) {
    const scanned = scan(find, resolvedBody, applies);
    const found = [...scanned.found, ...extra, ...(id === 'dynamic-context' ? [] : hookFindings(find, scanned.found))];
    const { resolvedOnly } = scanned;
    if (found.length === 0 && resolvedOnly.length === 0) continue;
    const items = [
      ...found.map((f) => {
        const l = at(f);
        return `${f.hit.label} (${escapeTerminal(l.file)}:${l.line}:${l.column})`;
      }),
      ...resolvedOnly.map((h) => `${h.label} (SKILL.md once templates are resolved)`),
    ];
    const shown = unique(items).slice(0, MAX_LISTED);
    const list =
      items.length > shown.length ? `${shown.join(', ')}, and ${items.length - shown.length} more` : shown.join(', ');
    checks.push({ id, status: 'fail', detail: `${lead}: ${list}`, locations: found.map(at) });
  }
  return checks;
}

/** Heuristics read what the model reads: all of SKILL.md, frontmatter included, and inlined prompts. */
function injectionCheck(
  skill: Skill,
  withPrompts: string | undefined,
  spans: Spans,
  scan: TextScan | undefined,
  scanResolved: (text: string) => TextScan,
): Check | undefined {
  const raw = findInjection(skill.skillMd, scan ?? matcher().scan(skill.skillMd));
  const extra = withPrompts === undefined ? [] : newHits(raw, findInjection(withPrompts, scanResolved(withPrompts)));
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
  resolvedBody: string | undefined,
  hidden: readonly StructuralFinding[],
  at: (f: Finding) => Location,
): Check {
  const harmless = (f: Finding) => isHarmlessRun(f.doc.text, f.hit, isProse(f.doc.path));
  const blocking = invisible.found.filter((f) => !harmless(f));
  const notices = invisible.found.filter(harmless);
  const resolvedOnly = invisible.resolvedOnly.filter(
    (h) => resolvedBody === undefined || !isHarmlessRun(resolvedBody, h, true),
  );
  if (blocking.length === 0 && resolvedOnly.length === 0 && hidden.length === 0) {
    if (notices.length === 0) return { id: 'visible-text', status: 'pass', detail: 'no hidden characters' };
    return {
      id: 'visible-text',
      status: 'warn',
      detail: `notice: ${runsByFile(notices, at).join('; ')} — an emoji joiner, a direction mark, or one zero-width character inside a word or a fence or touching no word, which hides no text`,
      locations: notices.map(at),
    };
  }
  const parts = [
    ...hidden.map((h) => `${escapeTerminal(h.path)}: ${h.message}`),
    ...runsByFile(blocking, at).map((p) => `${p} — instructions a reviewer cannot see`),
  ];
  if (resolvedOnly.length) {
    parts.push(
      `SKILL.md once templates are resolved: invisible characters (${distinctCodePoints(resolvedOnly).join(', ')})`,
    );
  }
  if (notices.length) parts.push(`notice (not blocking): ${runsByFile(notices, at).join('; ')}`);
  return {
    id: 'visible-text',
    status: 'fail',
    detail: parts.join('; '),
    locations: [
      ...hidden.map((h) => ({ file: h.path, line: 1, column: 1, endLine: 1, endColumn: 1 })),
      ...blocking.map(at),
    ],
  };
}

/** `<file>:<line>:<column>: <n> run(s) of invisible characters (U+…)`, one per file, first run's place. */
function runsByFile(found: readonly Finding[], at: (f: Finding) => Location): string[] {
  const byFile = new Map<string, Finding[]>();
  for (const f of found) byFile.set(f.doc.path, [...(byFile.get(f.doc.path) ?? []), f]);
  return [...byFile].map(([file, fs]) => {
    const first = at(fs[0]!);
    return `${escapeTerminal(file)}:${first.line}:${first.column}: ${plural(fs.length, 'run')} of invisible characters (${distinctCodePoints(fs.map((f) => f.hit)).join(', ')})`;
  });
}

/** Hits of the resolved body that no file already accounts for (same label, same text). */
function newHits(known: readonly Hit[], resolved: readonly Hit[]): Hit[] {
  const seen = new Set(known.map((h) => `${h.label}\0${h.match}`));
  return resolved.filter((h) => !seen.has(`${h.label}\0${h.match}`));
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
