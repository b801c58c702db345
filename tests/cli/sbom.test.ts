/**
 * `skillsmith sbom [--output FILE]` (SPEC D207–D209), validated against the CycloneDX 1.6
 * JSON schema. The schema files in tests/sbom/cyclonedx/ are copied verbatim from the npm
 * package @cyclonedx/cyclonedx-library 10.3.0 (res/schema/, Apache-2.0).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockOrThrow, writeLock } from '../../main/services/lock/index';
import { installSkills, tempDir, cleanup } from '../sandbox/helpers';
import { runCli } from '../support/paths';
import { cli, expectNoStack, requireBuiltCli } from './helpers';

const SCHEMAS = join(__dirname, '../sbom/cyclonedx');

function validator(): (doc: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const load = (file: string) => JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as Record<string, unknown>;
  // The bom schema names its companions by their file names; give them those ids.
  for (const f of ['spdx.SNAPSHOT.schema.json', 'jsf-0.82.SNAPSHOT.schema.json'])
    ajv.addSchema({ ...load(f), $id: `http://cyclonedx.org/schema/${f}` });
  const validate = ajv.compile(load('bom-1.6.SNAPSHOT.schema.json'));
  return (doc) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

interface Bom {
  serialNumber: string;
  metadata: { timestamp: string; tools: { components: Array<{ name: string }> } };
  components: Array<{
    type: string;
    name: string;
    version: string;
    'bom-ref': string;
    hashes: Array<{ alg: string; content: string }>;
    properties: Array<{ name: string; value: string }>;
  }>;
  dependencies: Array<{ ref: string; dependsOn: string[] }>;
}

let root = '';
beforeAll(() => {
  requireBuiltCli();
  root = tempDir('skillsmith-sbom-');
  installSkills(root, {
    fetcher: {
      version: '2.1.0',
      toml: '[permissions]\nnetwork = true\ntools = ["Bash", "Read"]\n\n[dependencies]\nnotes = "^1.0.0"\n',
    },
    notes: {},
  });
  // As install records them: notes came in only as fetcher's dependency, fetcher from git.
  const lock = readLockOrThrow(root).entries.map((e) =>
    e.name === 'notes'
      ? { ...e, direct: false }
      : {
          ...e,
          source: 'gh:acme/skills/fetcher@v2',
          resolved: 'https://github.com/acme/skills',
          commit: 'a'.repeat(40),
        },
  );
  writeLock(root, lock);
});
afterAll(cleanup);

describe('sbom', () => {
  it('is valid CycloneDX 1.6 and maps every installed skill', () => {
    const r = cli(root, 'sbom');
    expectNoStack(r);
    expect(r.code, r.stderr).toBe(0);
    const bom = JSON.parse(r.stdout) as Bom;
    const validate = validator();
    expect(validate(bom)).toEqual([]);
    // The schema is really applied: a component type CycloneDX does not define is refused.
    expect(validate({ ...bom, components: [{ ...bom.components[0], type: 'skill' }] })).not.toEqual([]);
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 });
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bom.metadata.tools.components.map((c) => c.name)).toEqual(['skillsmith']);

    const lock = readLockOrThrow(root).entries;
    expect(bom.components.map((c) => [c.type, c.name, c.version, c['bom-ref']])).toEqual([
      ['library', 'fetcher', '2.1.0', 'skill:fetcher@2.1.0'],
      ['library', 'notes', '1.0.0', 'skill:notes@1.0.0'],
    ]);
    const fetcher = bom.components[0]!;
    const pin = lock.find((e) => e.name === 'fetcher')!;
    expect(fetcher.hashes).toEqual([{ alg: 'SHA-256', content: pin.integrity.slice('sha256-'.length) }]);
    expect(fetcher.properties).toEqual([
      { name: 'skillsmith:source', value: 'gh:acme/skills/fetcher@v2' },
      { name: 'skillsmith:resolved', value: 'https://github.com/acme/skills' },
      { name: 'skillsmith:commit', value: 'a'.repeat(40) },
      { name: 'skillsmith:integrity', value: pin.integrity },
      { name: 'skillsmith:permissions-declared', value: 'skill.toml' },
      { name: 'skillsmith:permission:network', value: 'true' },
      { name: 'skillsmith:permission:write', value: 'false' },
      { name: 'skillsmith:permission:tool', value: 'Bash' },
      { name: 'skillsmith:permission:tool', value: 'Read' },
    ]);
    expect(bom.dependencies).toEqual([
      { ref: 'project', dependsOn: ['skill:fetcher@2.1.0'] },
      { ref: 'skill:fetcher@2.1.0', dependsOn: ['skill:notes@1.0.0'] },
      { ref: 'skill:notes@1.0.0', dependsOn: [] },
    ]);
  });

  it('is the same document twice but for the serial number and the timestamp', () => {
    const env = { SOURCE_DATE_EPOCH: '1767225600' };
    const a = JSON.parse(cli(root, 'sbom').stdout) as Bom;
    const b = JSON.parse(cli(root, 'sbom').stdout) as Bom;
    expect(a.serialNumber).not.toBe(b.serialNumber);
    const strip = (d: Bom) => ({ ...d, serialNumber: '', metadata: { ...d.metadata, timestamp: '' } });
    expect(strip(a)).toEqual(strip(b));
    const pinned = JSON.parse(runCli(['sbom'], { cwd: root, env }).stdout) as Bom;
    expect(pinned.metadata.timestamp).toBe('2026-01-01T00:00:00Z');
  });

  it('writes --output atomically inside the project, and refuses outside it', () => {
    const r = cli(root, 'sbom', '--output', 'out/skills.cdx.json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('→ out/skills.cdx.json (CycloneDX 1.6)\n');
    expect(validator()(JSON.parse(readFileSync(join(root, 'out/skills.cdx.json'), 'utf8')))).toEqual([]);
    const out = cli(root, 'sbom', '--output', '../x.json');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('refusing to write the SBOM outside the project: ../x.json');
  });

  it('refuses, naming the folder, when a skill is not what its pin says', () => {
    const p = tempDir('skillsmith-sbom-');
    installSkills(p, { one: {}, two: {} });
    appendFileSync(join(p, '.kitbash/skills/two/SKILL.md'), 'edited\n');
    const r = cli(p, 'sbom', '--output', 'bom.json');
    expectNoStack(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '.kitbash/skills/two: cannot be inventoried — its files differ from the integrity pinned',
    );
    expect(() => readFileSync(join(p, 'bom.json'))).toThrow();
    writeFileSync(join(p, 'kitbash.lock'), '');
    expect(cli(p, 'sbom').stderr).toContain('.kitbash/skills/one: cannot be inventoried — it is not pinned');
  });
});
