/**
 * SPEC D216 in the app's review: `require_signed = true` refusing an unsigned or untrusted
 * skill can be accepted as a reviewed exception (`check = "signature"` at skill.oms.sig:1),
 * judged by main against its own review's signature check — never an invalid signature.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signFolder } from '../../main/services/signing/folder';
import type { ReviewView } from '../../shared/ipc/channels/install';
import { openedSession } from '../desktop/helpers';
import { useTestConfigDir } from '../support/exceptions';
import { cleanupTemps, skillFiles, temp, write } from '../workspace/helpers';

afterAll(cleanupTemps);
useTestConfigDir();

const TOML = '[policy]\nrequire_signed = true\ntrusted_publishers = [{ key = "team.pub" }]\n';
const team = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });

async function setup(toml = TOML) {
  const p = temp('skillsmith-review-signature-');
  write(p, {
    'kitbash.toml': toml,
    'team.pub': String(team.publicKey.export({ type: 'spki', format: 'pem' })),
    'keys/team.pem': String(team.privateKey.export({ type: 'pkcs8', format: 'pem' })),
    'keys/other.pem': String(other.privateKey.export({ type: 'pkcs8', format: 'pem' })),
    ...skillFiles('src/plain', 'plain'),
    ...skillFiles('src/stranger', 'stranger'),
    ...skillFiles('src/tampered', 'tampered'),
  });
  for (const [name, key] of [
    ['stranger', 'other'],
    ['tampered', 'team'],
  ] as const) {
    const signed = signFolder(join(p, 'src', name), name, join(p, `keys/${key}.pem`));
    if (!signed.ok) throw new Error(signed.error.message);
  }
  writeFileSync(join(p, 'src/tampered/SKILL.md'), '# tampered\n\nChanged after it was signed.\n');
  const { raw, call } = openedSession(p, join(temp('skillsmith-review-signature-data-'), 'data'));
  return { p, raw, call };
}

const accept = (review: ReviewView, skill: string, over: object = {}) => ({
  id: review.id,
  skill,
  check: 'signature',
  file: 'skill.oms.sig',
  line: 1,
  by: 'ana',
  reason: 'built from our own repository at a commit we read',
  ...over,
});

describe('review.acceptFinding for a require_signed refusal', () => {
  it('accepts an unsigned or untrusted skill at skill.oms.sig:1 only, and the next review shows it accepted', async () => {
    const { p, raw, call } = await setup();
    for (const skill of ['plain', 'stranger']) {
      const review = await call<ReviewView>('install.begin', { source: `./src/${skill}` });
      expect(review.blockers).toHaveLength(1);
      expect(review.blockers[0]).toMatch(new RegExp(`^${skill}: policy: signature (unsigned|untrusted) — `));
      for (const over of [{ line: 2 }, { file: 'SKILL.md' }]) {
        const r = await raw('review.acceptFinding', accept(review, skill, over));
        expect(r, JSON.stringify(over)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      }
      expect(readFileSync(join(p, 'kitbash.toml'), 'utf8')).not.toContain(`skill = "${skill}"`);
      await call('review.acceptFinding', accept(review, skill));
      const again = await call<ReviewView>('install.begin', { source: `./src/${skill}` });
      expect(again.blockers).toEqual([]);
      expect(again.nodes[0]!.accepted).toEqual([
        expect.objectContaining({ id: 'signature', file: 'skill.oms.sig', line: 1, by: 'ana' }),
      ]);
    }
    const toml = readFileSync(join(p, 'kitbash.toml'), 'utf8');
    expect(toml.match(/check = "signature"/g)).toHaveLength(2);
  });

  it('never an invalid signature, and nothing where require_signed refuses nothing', async () => {
    const { p, raw, call } = await setup();
    const review = await call<ReviewView>('install.begin', { source: './src/tampered' });
    expect(review.blockers[0]).toMatch(/^tampered: policy: signature invalid — SKILL\.md: changed since it was signed/);
    const r = await raw('review.acceptFinding', accept(review, 'tampered'));
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(readFileSync(join(p, 'kitbash.toml'), 'utf8')).toBe(TOML);

    const lax = await setup('[policy]\nrequire_signed = "warn"\n');
    const warned = await lax.call<ReviewView>('install.begin', { source: './src/plain' });
    expect(warned.blockers).toEqual([]);
    const w = await lax.raw('review.acceptFinding', accept(warned, 'plain'));
    expect(w).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});
