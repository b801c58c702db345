import type { Skill } from '../ksf/model';
import { ARTIFACT_REF_RE } from '../ksf/model';
import { standingStub } from '../ksf/stub';
import { resolveTemplates, type PromptLookup } from '../ksf/templates';
import { estimateTokens } from '../ksf/tokens';
import { decodeUtf8, LineIndex } from '../ksf/text';
import { entryAt, joinDisplay } from '../ksf/tree';
import { findInjection } from './injection';
import { lintMcpServers } from './mcp';
import { findDynamicContext } from './safety/dynamic-context';
import { findRemoteExec } from './safety/remote-exec';
import { findSecrets } from './safety/secrets';
import { distinctCodePoints, findInvisible } from './safety/visible-text';
import { scanSet, type ScanDocument, type StructuralFinding } from './scan';
import { schemaWarnings } from './schema-warnings';
import type { Check, Hit, Location } from './types';

export interface LintOptions {
  /** The strict JSON-Schema tier; supplied by main/ (ajv generates code, so it stays out of shared/). */
  readonly jsonSchema?: (manifest: unknown) => readonly string[];
}

/** The Agent Skills naming rule: no leading, trailing or doubled hyphen. */
const SPEC_NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_LISTED = 8;

/**
 * Every static check for one loaded skill, in report order. The same function serves
 * lint, test, install review and the editor, so they can never disagree.
 */
export function lintSkill(skill: Skill, options: LintOptions = {}): Check[] {
  const m = skill.manifest;
  const checks: Check[] = [];
  const name = m.skill.name;

  checks.push(
    skill.manifested
      ? { id: 'manifest', status: 'pass', detail: `${name}@${m.skill.version}` }
      : {
          id: 'manifest',
          status: 'warn',
          detail: `unmanifested (SKILL.md only) — defaults applied${skill.frontmatter?.yamlError ? `; frontmatter is not valid YAML (${skill.frontmatter.yamlError}), read line by line` : ''}`,
        },
  );
  if (!SPEC_NAME_RE.test(name)) {
    checks.push({
      id: 'name-convention',
      status: 'warn',
      detail: `"${name}" has a leading, trailing or doubled hyphen; the Agent Skills naming rule forbids both, and several hosts drop such a skill without a word`,
    });
  }

  const spans = new Spans();
  const resolved = resolveTemplates(skill.body, name, (n) => lookupPrompt(skill, n));
  if (resolved.ok) {
    checks.push({ id: 'references', status: 'pass' });
  } else {
    const loc =
      resolved.offset !== undefined ? [spans.at('SKILL.md', skill.skillMd, skill.bodyOffset + resolved.offset, resolved.length ?? 1)] : undefined;
    checks.push({ id: 'references', status: 'fail', detail: resolved.message, ...(loc ? { locations: loc } : {}) });
  }

  if (resolved.ok) {
    const bodyTokens = estimateTokens(resolved.text);
    const stubTokens = estimateTokens(standingStub(resolved.text));
    const over = skill.manifested ? 'fail' : 'warn';
    checks.push({ id: 'budget', status: bodyTokens > m.context.budget ? over : 'pass', detail: `body ~${bodyTokens} tok / budget ${m.context.budget}` });
    checks.push({ id: 'standing', status: stubTokens > m.context.standing ? over : 'pass', detail: `stub ~${stubTokens} tok / limit ${m.context.standing}` });
  }

  if (m.targets.mode === 'gate') {
    const ok = entryAt(skill.tree, 'scripts') !== undefined || skill.tree.entries.some((e) => e.path.startsWith('scripts/')) || m.artifacts.produces.length > 0;
    checks.push({
      id: 'gate-verdict',
      status: ok ? 'pass' : 'fail',
      detail: ok ? 'has a scripts/ dir or a declared artifact' : 'gate mode but no scripts/ dir and no artifacts.produces — nothing to produce a verdict',
    });
  }

  if (m.mcp.servers.length > 0) {
    const { failures, warnings } = lintMcpServers(m.mcp.servers);
    checks.push({
      id: 'mcp',
      status: failures.length ? 'fail' : warnings.length ? 'warn' : 'pass',
      detail: failures.length
        ? failures.join('; ')
        : warnings.length
          ? warnings.join('; ')
          : `${m.mcp.servers.length} server(s): ${m.mcp.servers.map((s) => s.name).join(', ')}`,
    });
  }

  const refs = [...m.artifacts.produces, ...m.artifacts.consumes];
  if (refs.length > 0) {
    const bad = refs.filter((r) => !ARTIFACT_REF_RE.test(r));
    checks.push({
      id: 'artifacts',
      status: bad.length ? 'fail' : 'pass',
      detail: bad.length ? `malformed: ${bad.join(', ')} (want name@version)` : `produces ${m.artifacts.produces.length}, consumes ${m.artifacts.consumes.length}`,
    });
  }

  if (skill.rawManifest) {
    const lints = schemaWarnings(skill.rawManifest);
    if (lints.length) checks.push({ id: 'schema', status: 'warn', detail: lints.join('; ') });
    if (options.jsonSchema) {
      const issues = options.jsonSchema(skill.rawManifest);
      checks.push(
        issues.length
          ? { id: 'json-schema', status: 'fail', detail: issues.join('; ') }
          : { id: 'json-schema', status: 'pass', detail: 'valid against spec/schema/skill.schema.json' },
      );
    }
  }

  const { documents, hidden } = scanSet(skill);
  // Substitution can form what no file says, so the compiled body is scanned too. A
  // prompt can complete any pattern; artifact and lore variables only insert fixed text
  // whose one trigger is a backtick (`!{{artifact.x}}` compiles to a load-time command),
  // so for them the dynamic-context scan is the one that can find anything new.
  const compiled = resolved.ok && resolved.text !== skill.body ? resolved : undefined;
  const resolvedBody = compiled?.inlinedPrompt ? compiled.text : undefined;
  const resolvedForDynamic = compiled?.text;
  const injectionRaw = findInjection(skill.skillMd);
  const injectionResolved = resolvedBody === undefined ? [] : newHits(injectionRaw, findInjection(resolvedBody));
  if (injectionRaw.length || injectionResolved.length) {
    const labels = unique([...injectionRaw, ...injectionResolved].map((h) => h.label));
    checks.push({
      id: 'injection',
      status: 'warn',
      detail: `heuristic match — review: ${labels.join(', ')}`,
      locations: injectionRaw.map((h) => spans.at('SKILL.md', skill.skillMd, h.offset, h.length)),
    });
  }

  checks.push(...safetyChecks(documents, hidden, { all: resolvedBody, dynamic: resolvedForDynamic }, spans));
  return checks;
}

interface Finding {
  readonly hit: Hit;
  readonly doc: ScanDocument;
}

function safetyChecks(
  documents: readonly ScanDocument[],
  hidden: readonly StructuralFinding[],
  resolved: { readonly all: string | undefined; readonly dynamic: string | undefined },
  spans: Spans,
): Check[] {
  const at = (f: Finding): Location => spans.at(f.doc.path, f.doc.text, f.hit.offset, f.hit.length);
  const scan = (find: (text: string) => Hit[], resolvedBody: string | undefined): { found: Finding[]; resolvedOnly: Hit[] } => {
    const found = documents.flatMap((doc) => find(doc.text).map((hit) => ({ hit, doc })));
    const resolvedOnly = resolvedBody === undefined ? [] : newHits(found.map((f) => f.hit), find(resolvedBody));
    return { found, resolvedOnly };
  };
  const describe = (found: Finding[], resolvedOnly: Hit[]): string => {
    const items = [
      ...found.map((f) => {
        const l = at(f);
        return `${f.hit.label} (${l.file}:${l.line}:${l.column})`;
      }),
      ...resolvedOnly.map((h) => `${h.label} (SKILL.md once templates are resolved)`),
    ];
    const shown = unique(items).slice(0, MAX_LISTED);
    return items.length > shown.length ? `${shown.join(', ')}, and ${items.length - shown.length} more` : shown.join(', ');
  };

  const checks: Check[] = [];
  const invisible = scan(findInvisible, resolved.all);
  if (invisible.found.length || invisible.resolvedOnly.length || hidden.length) {
    const parts: string[] = hidden.map((h) => `${h.path}: ${h.message}`);
    const byFile = new Map<string, Finding[]>();
    for (const f of invisible.found) byFile.set(f.doc.path, [...(byFile.get(f.doc.path) ?? []), f]);
    for (const [file, fs] of byFile) {
      const cps = distinctCodePoints(fs.map((f) => f.hit));
      const first = at(fs[0]!);
      parts.push(`${file}:${first.line}:${first.column}: ${fs.length} run(s) of invisible characters (${cps.join(', ')}) — instructions a reviewer cannot see`);
    }
    if (invisible.resolvedOnly.length) parts.push(`SKILL.md once templates are resolved: invisible characters (${distinctCodePoints(invisible.resolvedOnly).join(', ')})`);
    checks.push({
      id: 'visible-text',
      status: 'fail',
      detail: parts.join('; '),
      locations: [...hidden.map((h) => ({ file: h.path, line: 1, column: 1, endLine: 1, endColumn: 1 })), ...invisible.found.map(at)],
    });
  } else {
    checks.push({ id: 'visible-text', status: 'pass', detail: 'no hidden characters' });
  }

  const patternChecks = [
    { id: 'dynamic-context', find: findDynamicContext, resolvedBody: resolved.dynamic, lead: 'command substitution runs when the skill loads, before the model sees it' },
    { id: 'remote-exec', find: findRemoteExec, resolvedBody: resolved.all, lead: 'download-and-execute pipeline' },
    { id: 'secrets', find: findSecrets, resolvedBody: resolved.all, lead: 'hardcoded credential' },
  ] as const;
  for (const { id, find, resolvedBody, lead } of patternChecks) {
    const { found, resolvedOnly } = scan(find, resolvedBody);
    if (found.length === 0 && resolvedOnly.length === 0) continue;
    checks.push({ id, status: 'fail', detail: `${lead}: ${describe(found, resolvedOnly)}`, locations: found.map(at) });
  }
  return checks;
}

function lookupPrompt(skill: Skill, name: string): PromptLookup {
  const rel = `prompts/${name}.md`;
  const path = joinDisplay(skill.tree.root, rel);
  const entry = entryAt(skill.tree, rel);
  if (!entry || entry.kind === 'dir') return { kind: 'missing', path };
  if (entry.kind === 'symlink') return { kind: 'symlink', path };
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return { kind: 'unreadable', path, why: `not valid UTF-8 (invalid byte sequence at byte offset ${decoded.byteOffset})` };
  return { kind: 'text', text: decoded.text };
}

/** Hits of the resolved body that no file already accounts for (same label, same text). */
function newHits(known: readonly Hit[], resolved: readonly Hit[]): Hit[] {
  const seen = new Set(known.map((h) => `${h.label}\0${h.match}`));
  return resolved.filter((h) => !seen.has(`${h.label}\0${h.match}`));
}

/** Offsets to 1-based positions; a file's line index is built only once it has a finding. */
class Spans {
  private readonly indexes = new Map<string, LineIndex>();
  at(file: string, text: string, offset: number, length: number): Location {
    let index = this.indexes.get(file);
    if (!index) this.indexes.set(file, (index = new LineIndex(text)));
    const start = index.position(offset);
    const end = index.position(offset + length);
    return { file, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
