import type { Skill } from '../../ksf/model';
import { standingStub } from '../../ksf/stub';
import { resolveTemplates, type PromptLookup, type Resolution } from '../../ksf/templates';
import { decodeUtf8 } from '../../ksf/text';
import { estimateTokens } from '../../ksf/tokens';
import { entryAt, joinDisplay } from '../../ksf/tree';
import type { Spans } from '../spans';
import type { Check } from '../types';

/** Resolve the body's templates once; every later check reads this result. */
export function resolveBody(skill: Skill): Resolution {
  return resolveTemplates(skill.body, skill.manifest.skill.name, (n) => lookupPrompt(skill, n));
}

/** `references`, then — only when resolution worked — `budget` and `standing` of the compiled body. */
export function bodyChecks(skill: Skill, resolved: Resolution, spans: Spans): Check[] {
  if (!resolved.ok) {
    const { offset, length, message } = resolved.error;
    const at =
      offset === undefined ? undefined : spans.at('SKILL.md', skill.skillMd, skill.bodyOffset + offset, length ?? 1);
    return [{ id: 'references', status: 'fail', detail: message, ...(at ? { locations: [at] } : {}) }];
  }
  const { context } = skill.manifest;
  const bodyTokens = estimateTokens(resolved.value.text);
  const stubTokens = estimateTokens(standingStub(resolved.value.text));
  // A bare skill never declared these limits: measured and warned about, never failed.
  const over = skill.manifested ? 'fail' : 'warn';
  return [
    { id: 'references', status: 'pass' },
    {
      id: 'budget',
      status: bodyTokens > context.budget ? over : 'pass',
      detail: `body ~${bodyTokens} tok / budget ${context.budget}`,
    },
    {
      id: 'standing',
      status: stubTokens > context.standing ? over : 'pass',
      detail: `stub ~${stubTokens} tok / limit ${context.standing}`,
    },
  ];
}

function lookupPrompt(skill: Skill, name: string): PromptLookup {
  const rel = `prompts/${name}.md`;
  const path = joinDisplay(skill.tree.root, rel);
  const entry = entryAt(skill.tree, rel);
  if (!entry || entry.kind === 'dir') return { kind: 'missing', path };
  if (entry.kind === 'symlink') return { kind: 'symlink', path };
  const decoded = decodeUtf8(entry.bytes);
  if (!decoded.ok) return { kind: 'unreadable', path, why: decoded.error.message };
  return { kind: 'text', text: decoded.value.text };
}
