import { plural } from '../text/format';
import { parseDocument, isMap, isScalar } from 'yaml';
import type { Skill } from '../ksf/model';
import { decodeUtf8 } from '../ksf/text';
import type { Check } from './types';
import { EVAL_TIERS } from '../evals/model';

const TIERS = EVAL_TIERS;

/**
 * `test`'s listing of `evals/*.eval.yaml`. Only the static tier runs in this build; the
 * check says which files need a runner rather than pretending they passed.
 */
export function evalsCheck(skill: Skill): Check | undefined {
  const files = skill.tree.entries.filter((e) => e.kind === 'file' && /^evals\/[^/]+\.eval\.yaml$/.test(e.path));
  const hasDir = skill.tree.entries.some((e) => e.path === 'evals');
  if (!hasDir) return undefined;
  if (files.length === 0) return { id: 'evals', status: 'pass', detail: 'evals/ holds no *.eval.yaml files' };
  const problems: string[] = [];
  const byTier = new Map<string, string[]>();
  for (const f of files) {
    if (f.kind !== 'file') continue;
    const name = f.path.slice('evals/'.length);
    const decoded = decodeUtf8(f.bytes);
    if (!decoded.ok) {
      problems.push(`${f.path}: not valid UTF-8`);
      continue;
    }
    const doc = parseDocument(decoded.value.text, { uniqueKeys: true, prettyErrors: false });
    const err = doc.errors[0];
    if (err) {
      problems.push(
        `${f.path}: invalid YAML (${err.message.split('\n')[0]}${err.linePos ? ` at line ${err.linePos[0].line}` : ''})`,
      );
      continue;
    }
    const tierNode = isMap(doc.contents) ? doc.contents.get('tier', true) : undefined;
    const tier = isScalar(tierNode) ? String(tierNode.value) : undefined;
    if (!tier || !(TIERS as readonly string[]).includes(tier)) {
      problems.push(`${f.path}: tier must be one of ${TIERS.join(', ')}${tier ? ` (got "${tier}")` : ''}`);
      continue;
    }
    byTier.set(tier, [...(byTier.get(tier) ?? []), name]);
  }
  const listing = TIERS.filter((t) => byTier.has(t)).map((t) => `${t}: ${byTier.get(t)!.join(', ')}`);
  const needsRunner =
    (byTier.get('audit')?.length ?? 0) + (byTier.get('behavioral')?.length ?? 0) + (byTier.get('trigger')?.length ?? 0);
  const parts = [`${plural(files.length, 'eval file')}${listing.length ? ` — ${listing.join('; ')}` : ''}`];
  if (needsRunner)
    parts.push(
      `${plural(needsRunner, 'audit/behavioral/trigger eval')} need${needsRunner === 1 ? 's' : ''} a runner — run ${needsRunner === 1 ? 'it' : 'them'} with "skillsmith eval"`,
    );
  parts.push(...problems);
  return { id: 'evals', status: problems.length ? 'warn' : 'pass', detail: parts.join('; ') };
}
