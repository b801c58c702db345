/** In-memory skills and projects for the pure compile tests. */
import { loadSkill } from '../../shared/ksf/load';
import type { Skill } from '../../shared/ksf/model';
import type { ProjectFiles } from '../../shared/targets/types';
import { tree, type EntrySpec } from '../unit/helpers';

export { tree, utf8 } from '../unit/helpers';

export function manifest(name: string, extra = '', description = `The ${name} skill, for tests.`): string {
  return `[skill]\nname = "${name}"\nversion = "1.2.3"\ndescription = "${description}"\n\n[context]\nbudget = 4000\n\n${extra}\n`;
}

/** A loaded manifested skill (throws if it does not load). */
export function skill(
  name: string,
  opts: { extra?: string; body?: string; files?: Record<string, EntrySpec>; description?: string } = {},
): Skill {
  const files: Record<string, EntrySpec> = {
    'SKILL.md': opts.body ?? `# ${name}\n\nUse this when testing ${name}.\n\nStep one. Step two.\n`,
    'skill.toml': manifest(name, opts.extra ?? '', opts.description),
    ...(opts.files ?? {}),
  };
  const r = loadSkill(tree(`.kitbash/skills/${name}`, files));
  if (!r.ok) throw new Error(`${name}: ${r.error.message} ${(r.error.detail ?? []).join('; ')}`);
  return r.value;
}

export function bareSkill(dir: string, md: string): Skill {
  const r = loadSkill(tree(`.kitbash/skills/${dir}`, { 'SKILL.md': md }));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A project as a path → text map; folders are implied by the paths (a trailing '/' makes an empty one). */
export function memProject(
  files: Record<string, string> = {},
  rootName = 'demo-project',
): ProjectFiles & { files: Record<string, string> } {
  const has = (p: string): boolean => p in files || Object.keys(files).some((k) => k.startsWith(`${p}/`));
  return {
    files,
    rootName,
    exists: has,
    read: (p) => (p in files && !p.endsWith('/') ? files[p] : undefined),
    list: (dir) => {
      const names = new Map<string, 'file' | 'dir'>();
      for (const k of Object.keys(files)) {
        if (!k.startsWith(`${dir}/`)) continue;
        const rest = k.slice(dir.length + 1);
        if (rest === '') continue;
        const i = rest.indexOf('/');
        if (i === -1) names.set(rest, 'file');
        else names.set(rest.slice(0, i), 'dir');
      }
      return [...names].map(([name, kind]) => ({ name, kind }));
    },
  };
}
