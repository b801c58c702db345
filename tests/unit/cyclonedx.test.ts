/** The pure skill → CycloneDX mapping (SPEC D208), for what the CLI suite's project lacks. */
import { describe, expect, it } from 'vitest';
import { cyclonedxBom, type InventorySkill } from '../../shared/sbom/cyclonedx';

const CTX = {
  serialNumber: 'urn:uuid:00000000-0000-4000-8000-000000000000',
  timestamp: 'T',
  toolVersion: '9',
  project: 'p',
};
const skill = (name: string, more: Partial<InventorySkill> = {}): InventorySkill => ({
  name,
  version: '1.0.0',
  description: `${name} does one thing.`,
  source: `file:./src/${name}`,
  integrity: `sha256-${'0'.repeat(64)}`,
  manifested: true,
  permissions: { tools: [], network: false, write: false },
  dependsOn: [],
  direct: true,
  ...more,
});

type Doc = {
  components: Array<{ name: string; properties: Array<{ name: string; value: string }> }>;
  dependencies: Array<{ ref: string; dependsOn: string[] }>;
};

describe('cyclonedxBom', () => {
  it('claims no permissions for a bare SKILL.md folder, which declares none', () => {
    const doc = cyclonedxBom([skill('bare', { manifested: false })], CTX) as Doc;
    const props = doc.components[0]!.properties.map((p) => p.name);
    expect(props).toContain('skillsmith:permissions-declared');
    expect(doc.components[0]!.properties.find((p) => p.name === 'skillsmith:permissions-declared')!.value).toBe('none');
    expect(props.filter((n) => n.startsWith('skillsmith:permission:'))).toEqual([]);
  });

  it('sorts components and keeps only dependencies that are installed', () => {
    const doc = cyclonedxBom(
      [skill('zeta', { dependsOn: ['gone', 'alpha'] }), skill('alpha', { direct: false })],
      CTX,
    ) as Doc;
    expect(doc.components.map((c) => c.name)).toEqual(['alpha', 'zeta']);
    expect(doc.dependencies).toEqual([
      { ref: 'project', dependsOn: ['skill:zeta@1.0.0'] },
      { ref: 'skill:alpha@1.0.0', dependsOn: [] },
      { ref: 'skill:zeta@1.0.0', dependsOn: ['skill:alpha@1.0.0'] },
    ]);
  });
});
