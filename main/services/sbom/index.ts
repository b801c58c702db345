import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { LOCK_FILE } from '../../../shared/lock/lockfile';
import { fail, ok, type Result } from '../../../shared/result';
import { cyclonedxBom, type InventorySkill } from '../../../shared/sbom/cyclonedx';
import { folderReadsOnce } from '../skills/folder-reads';
import { installedSkills } from '../skills/locate';
import { projectStatus } from '../workspace/status';

/**
 * The inventory of a project's installed skills (SPEC D207). Only skills whose files hash
 * to their pin are listed with that pin's hash, so the document is refused, not softened,
 * when one is not: an SBOM naming a hash the files do not have would vouch for them.
 */
export function projectBom(root: string, toolVersion: string, now: Date): Result<object> {
  const reads = folderReadsOnce();
  const s = projectStatus(root, { compiled: false, costs: false, reads });
  if (s.lockError) return fail('invalid-input', s.lockError.split('\n')[0]!);
  const bad = s.skills.find((k) => k.lock !== 'ok');
  if (bad) {
    const why = {
      drift: `its files differ from the integrity pinned in ${LOCK_FILE}`,
      unpinned: `it is not pinned in ${LOCK_FILE}`,
      broken: `it does not load`,
      ok: '',
    }[bad.lock];
    return fail('invalid-input', `${bad.folder}: cannot be inventoried — ${why} (run skillsmith verify)`);
  }
  const folders = new Map(installedSkills(root).map((l) => [l.display, l]));
  const skills: InventorySkill[] = [];
  for (const k of s.skills) {
    const loc = folders.get(k.folder)!;
    // Answered from the reads projectStatus just made: the same bytes it hashed.
    const tree = reads.tree(loc.abs, loc.display);
    const loaded = tree.ok ? reads.skill(tree.value, loc.nameHint) : tree;
    if (!loaded.ok) return loaded;
    const m = loaded.value.manifest;
    const pin = k.pin!;
    skills.push({
      name: k.name,
      version: m.skill.version,
      description: m.skill.description,
      source: pin.source,
      ...(pin.resolved ? { resolved: pin.resolved } : {}),
      ...(pin.commit ? { commit: pin.commit } : {}),
      integrity: pin.integrity,
      manifested: loaded.value.manifested,
      permissions: m.permissions,
      dependsOn: Object.keys(m.dependencies),
      direct: pin.direct !== false,
    });
  }
  return ok(
    cyclonedxBom(skills, {
      serialNumber: `urn:uuid:${randomUUID()}`,
      timestamp: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      toolVersion,
      project: basename(root),
    }),
  );
}
