import type {
  LivePreview as WirePreview,
  PreviewFile as WireFile,
  TargetPreview as WireTarget,
} from '../../../shared/ipc/channels/compile';
import { sectionMarkers } from '../../../shared/targets/common';
import { utf8Length } from '../../../shared/text/utf8';
import type { LivePreview, PreviewFile, TargetPreview } from './live';

/**
 * Largest text a preview sends whole (UTF-16 units). Past it the page gets sizes and, for a
 * merged file, this skill's section: at 1,000 eager skills AGENTS.md is ~14 MB, which would
 * cost the page far more to receive and lay out than any reader gets from it.
 */
export const TEXT_BOUND = 256 * 1024;

/** This skill's marked section of a merged file (AGENTS.md, CONVENTIONS.md), markers included. */
export function ownSection(text: string, skill: string): string | undefined {
  const { begin, end } = sectionMarkers(skill);
  const a = text.indexOf(begin);
  const b = a === -1 ? -1 : text.indexOf(end, a);
  return b === -1 ? undefined : text.slice(a, b + end.length);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Copied bytes as text when they are valid UTF-8 (a script is shown), else undefined. */
function asText(content: string | Uint8Array): string | undefined {
  if (typeof content === 'string') return content;
  try {
    return strictUtf8.decode(content);
  } catch {
    return undefined;
  }
}

const bounded = (t: string | undefined): string | null => (t !== undefined && t.length <= TEXT_BOUND ? t : null);

function fileOf(f: PreviewFile, skill: string): WireFile {
  const text = asText(f.content);
  const merged = f.merge === 'section' && typeof f.content === 'string';
  return {
    path: f.path,
    changed: f.changed,
    merge: f.merge ?? null,
    servedBy: f.servedBy ?? null,
    size: typeof f.content === 'string' ? utf8Length(f.content) : f.content.length,
    binary: text === undefined,
    text: bounded(text),
    onDisk: f.disk !== undefined,
    disk: bounded(f.disk),
    section: merged ? (ownSection(f.content as string, skill) ?? null) : null,
    diskSection: merged && f.disk !== undefined ? (ownSection(f.disk, skill) ?? null) : null,
  };
}

function targetOf(t: TargetPreview, skill: string): WireTarget {
  return {
    target: t.target,
    agent: t.agent,
    loading: t.loading,
    status: t.status,
    reasons: t.reasons.map((r) => ({ code: r.code, message: r.message })),
    standingTokens: t.standingTokens,
    loadedTokens: t.loadedTokens,
    files: t.files.map((f) => fileOf(f, skill)),
    warnings: [...t.warnings],
    notes: [...t.notes],
    inactive: t.inactive === true,
  };
}

/** What the page receives: the preview without the whole plan, texts bounded. `dir` names a skill that did not load. */
export function toWire(live: LivePreview, dir: string, ms: number): WirePreview {
  const skill = live.name ?? dir;
  return {
    loadError: live.loadError ?? null,
    prepareError: live.prepareError ?? null,
    name: live.name ?? null,
    bodyTokens: live.bodyTokens ?? null,
    stubTokens: live.stubTokens ?? null,
    budget: live.budget ?? null,
    standingLimit: live.standingLimit ?? null,
    disclosure: live.disclosure ?? null,
    plan: { targets: [...live.plan.targets], errors: [...live.plan.errors] },
    refusals: [...live.refusals],
    projectRefusals: [...live.projectRefusals],
    failure: live.failure ?? null,
    targets: live.targets.map((t) => targetOf(t, skill)),
    ms,
  };
}
