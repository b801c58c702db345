/**
 * The installed skills as a CycloneDX 1.6 JSON bill of materials (SPEC D207–D209). Pure:
 * the edge supplies the skills, the serial number and the clock; everything else follows
 * from the skills, sorted by name, so two runs over the same project differ only in
 * `serialNumber` and `metadata.timestamp`.
 */

/** One installed skill whose files hash to its kitbash.lock pin. */
export interface InventorySkill {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** The source as pinned (`gh:…`, `file:…`, `import:local`) and its canonical form and commit when known. */
  readonly source: string;
  readonly resolved?: string;
  readonly commit?: string;
  /** The lock's `sha256-<hex>` tree integrity, which the files on disk were checked against. */
  readonly integrity: string;
  /** Whether a skill.toml declares the permissions (a bare SKILL.md folder declares none). */
  readonly manifested: boolean;
  readonly permissions: { readonly tools: readonly string[]; readonly network: boolean; readonly write: boolean };
  /** Names of the installed skills it depends on. */
  readonly dependsOn: readonly string[];
  /** False when it is installed only because another skill depends on it. */
  readonly direct: boolean;
}

export interface BomContext {
  /** `urn:uuid:<v4>`, new for every document. */
  readonly serialNumber: string;
  /** ISO 8601. */
  readonly timestamp: string;
  readonly toolVersion: string;
  /** The project folder's name. */
  readonly project: string;
}

const INTEGRITY = /^sha256-([0-9a-f]{64})$/;

export const bomRef = (s: Pick<InventorySkill, 'name' | 'version'>): string => `skill:${s.name}@${s.version}`;

export function cyclonedxBom(skills: readonly InventorySkill[], ctx: BomContext): object {
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byName = new Map(sorted.map((s) => [s.name, s]));
  return {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: ctx.serialNumber,
    version: 1,
    metadata: {
      timestamp: ctx.timestamp,
      tools: { components: [{ type: 'application', name: 'skillsmith', version: ctx.toolVersion }] },
      component: { type: 'application', 'bom-ref': 'project', name: ctx.project },
    },
    components: sorted.map(component),
    dependencies: [
      { ref: 'project', dependsOn: sorted.filter((s) => s.direct).map(bomRef) },
      ...sorted.map((s) => ({
        ref: bomRef(s),
        dependsOn: [...new Set(s.dependsOn)].sort().flatMap((d) => (byName.has(d) ? [bomRef(byName.get(d)!)] : [])),
      })),
    ],
  };
}

function component(s: InventorySkill): object {
  const hex = INTEGRITY.exec(s.integrity)?.[1];
  const prop = (name: string, value: string) => ({ name: `skillsmith:${name}`, value });
  const permissions = s.manifested
    ? [
        prop('permission:network', String(s.permissions.network)),
        prop('permission:write', String(s.permissions.write)),
        ...[...s.permissions.tools].sort().map((t) => prop('permission:tool', t)),
      ]
    : [];
  return {
    type: 'library',
    'bom-ref': bomRef(s),
    name: s.name,
    version: s.version,
    description: s.description,
    ...(hex ? { hashes: [{ alg: 'SHA-256', content: hex }] } : {}),
    properties: [
      prop('source', s.source),
      ...(s.resolved ? [prop('resolved', s.resolved)] : []),
      ...(s.commit ? [prop('commit', s.commit)] : []),
      prop('integrity', s.integrity),
      prop('permissions-declared', s.manifested ? 'skill.toml' : 'none'),
      ...permissions,
    ],
  };
}
