/**
 * SPEC D254: in the app's review, a blocking scanner finding is accepted like a built-in one —
 * main checks the finding against what its own review's scanners found, never the caller's
 * word — and the next review shows it accepted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confirmScanners } from '../../main/services/scanners/confirmations';
import type { ReviewView } from '../../shared/ipc/channels/install';
import { parseToml } from '../../shared/ksf/toml';
import { readScanners } from '../../shared/scanners/config';
import { openedSession } from '../desktop/helpers';
import { useTestConfigDir } from '../support/exceptions';
import { cleanupTemps, skillFiles, temp, write } from '../workspace/helpers';

afterAll(cleanupTemps);
useTestConfigDir();

const FAKE = join(__dirname, '..', 'cli', 'fixtures', 'fake-scanner.mjs');
const TOML = `[policy]\nblock_scanner_findings = "high"\n\n[scanners.fake]\ncommand = ${JSON.stringify([process.execPath, FAKE, 'ok', '{skill}'])}\n`;

async function setup() {
  const p = temp('skillsmith-review-scanner-');
  write(p, {
    'kitbash.toml': TOML,
    ...skillFiles('src/tool', 'tool'),
    'src/tool/scripts/run.sh': '#!/bin/sh\necho hello\n',
  });
  const t = parseToml(TOML);
  const defs = t.ok ? readScanners(t.value) : undefined;
  if (!defs?.ok) throw new Error('bad test config');
  confirmScanners(p, defs.value.scanners, 'all');
  const { raw, call } = openedSession(p, join(temp('skillsmith-review-scanner-data-'), 'data'));
  const review = await call<ReviewView>('install.begin', { source: './src/tool' });
  return { p, raw, call, review };
}

describe('review.acceptFinding for a scanner finding', () => {
  it('accepts only a blocking finding this review found, and the next review shows it accepted', async () => {
    const { p, raw, call, review } = await setup();
    expect(review.scanners).toEqual([expect.objectContaining({ name: 'fake', state: 'ran', findings: 2 })]);
    expect(review.blockers).toEqual([
      'tool: scanner: fake critical fake.exec — runs a downloaded program at scripts/run.sh:2',
    ]);
    const base = {
      id: review.id,
      skill: 'tool',
      check: 'scanner:fake/fake.exec',
      file: 'scripts/run.sh',
      line: 2,
      by: 'ana',
      reason: 'the download is pinned',
    };
    for (const over of [
      { line: 3 },
      { check: 'scanner:fake/fake.style', file: 'SKILL.md', line: 1 },
      { check: 'scanner:other/fake.exec' },
    ]) {
      const r = await raw('review.acceptFinding', { ...base, ...over });
      expect(r, JSON.stringify(over)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(readFileSync(join(p, 'kitbash.toml'), 'utf8')).toBe(TOML);
    await call('review.acceptFinding', base);
    expect(readFileSync(join(p, 'kitbash.toml'), 'utf8')).toContain('check = "scanner:fake/fake.exec"');
    const again = await call<ReviewView>('install.begin', { source: './src/tool' });
    expect(again.blockers).toEqual([]);
    expect(again.nodes[0]!.accepted).toEqual([
      expect.objectContaining({ id: 'scanner:fake/fake.exec', file: 'scripts/run.sh', line: 2, by: 'ana' }),
    ]);
    expect(again.nodes[0]!.scanners?.map((f) => f.status)).toEqual(['accepted', 'advisory']);
  });
});
