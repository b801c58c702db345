import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every skill folder (one holding SKILL.md) at or below `dir`, in name order; `.git` is skipped. */
export function skillDirs(dir: string, out: string[] = []): string[] {
  if (existsSync(join(dir, 'SKILL.md'))) out.push(dir);
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (name !== '.git' && statSync(p).isDirectory()) skillDirs(p, out);
  }
  return out;
}
