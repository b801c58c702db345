/**
 * bench/heldout-verdicts.json holds hand-read labels of findings on public skills that are not
 * in this repository (bench/verdicts.mjs): each label says why, quotes at most the matched
 * text, and carries no invisible character of its own.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAFETY_CHECK_IDS } from '../../shared/lint/types';
import { repoRoot } from '../support/paths';

interface Label {
  readonly verdict?: boolean;
  readonly real?: boolean;
  readonly snippet: string;
  readonly why: string;
}

const file = readFileSync(resolve(repoRoot, 'bench/heldout-verdicts.json'), 'utf8');
const labels = JSON.parse(file) as {
  repos: Record<string, { status: string; why: string }>;
  findings: Record<string, Label>;
  pipelines: Record<string, Label>;
};
const REPO = /^([A-Za-z0-9_.-]+\+[A-Za-z0-9_.-]+)@[0-9a-f]{12}\//;

describe('bench/heldout-verdicts.json', () => {
  it('carries no invisible character (they are spelled <U+XXXX>)', () => {
    expect(file).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u);
  });

  it('names every repository it labels, each with a status and why', () => {
    const keys = [...Object.keys(labels.findings), ...Object.keys(labels.pipelines)];
    const repos = new Set(keys.map((k) => REPO.exec(k)?.[1]));
    expect(repos.has(undefined), 'every key starts owner+name@commit12/').toBe(false);
    for (const r of repos) expect(Object.keys(labels.repos), r).toContain(r);
    for (const [r, m] of Object.entries(labels.repos)) {
      expect(['contaminated', 'possibly-seen', 'clean', 'fresh', 'fresh-2'], r).toContain(m.status);
      expect(m.why.length, r).toBeGreaterThan(20);
    }
  });

  it('judges each finding of a blocking check, and each pipeline, with why and a short quote', () => {
    for (const [key, l] of Object.entries(labels.findings)) {
      expect(
        SAFETY_CHECK_IDS.some((id) => key.includes(`/${id}/`)),
        key,
      ).toBe(true);
      expect(key, key).toMatch(/\/\d+$/);
      expect(typeof l.verdict, key).toBe('boolean');
      expect(l.why.length, key).toBeGreaterThan(20);
      expect(l.snippet.length, key).toBeLessThanOrEqual(80);
    }
    for (const [key, l] of Object.entries(labels.pipelines)) {
      expect(key, key).toMatch(/\/\d+$/);
      expect(typeof l.real, key).toBe('boolean');
      expect(l.why.length, key).toBeGreaterThan(10);
      expect(l.snippet.length, key).toBeLessThanOrEqual(80);
    }
  });
});
