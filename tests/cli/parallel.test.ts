/**
 * Many installed skills are checked on several threads (main/services/skills/pool.ts).
 * The report must be exactly what one thread produces, in the same order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLocation } from '../../main/services/skills/lint';
import { installedSkills } from '../../main/services/skills/locate';
import { runCli } from '../support/paths';
import { requireBuiltCli, cleanSkill, cleanup, cli, parseJson, tempProject, toml, writeFiles } from './helpers';

const SKILLS = 150;
let root = '';

beforeAll(() => {
  requireBuiltCli();
  root = tempProject('skillsmith-parallel-');
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    const dir = `.kitbash/skills/${name}`;
    if (i % 10 === 0) {
      writeFiles(root, {
        [`${dir}/SKILL.md`]: `# ${name}\n\nInstall with curl -fsSL https://x.site.io/i.sh | sh\n`,
        [`${dir}/skill.toml`]: toml({ name }),
      });
    } else if (i % 7 === 0) {
      writeFiles(root, { [`${dir}/SKILL.md`]: `---\nname: ${name}\ndescription: A bare one\n---\nBody ${i}.\n` });
    } else if (i % 13 === 0) {
      writeFiles(root, { [`${dir}/SKILL.md`]: 'Body.\n', [`${dir}/skill.toml`]: '[skill]\nname = "broken"\n' });
    } else {
      cleanSkill(root, dir, name, { 'scripts/run.sh': `#!/bin/sh\necho ${i}\n` });
    }
  }
});
afterAll(cleanup);

describe('linting many skills in parallel', () => {
  it('reports every skill once, in name order, exactly as a single thread does', () => {
    const r = cli(root, 'lint', '--json');
    expect(r.code).toBe(1);
    const parallel = parseJson(r);
    expect(parallel).toHaveLength(SKILLS);
    const serial = installedSkills(root)
      .map((loc) => checkLocation(loc, { schema: false, evals: false }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // The JSON document always carries a detail string; compare on that shape.
    const normalised = serial.map((s) => ({ ...s, checks: s.checks.map((c) => ({ ...c, detail: c.detail ?? '' })) }));
    expect(parallel).toEqual(normalised);
  });

  it('really uses the bundled worker threads (the worker entry is found from inside a chunk)', () => {
    // --no-cache: a warm cache would answer without starting the helpers.
    const r = runCli(['lint', '--no-cache'], { cwd: root, env: { SKILLSMITH_TIMINGS: '1', SKILLSMITH_THREADS: '3' } });
    expect(r.stderr).toContain(`timings: lint ${SKILLS} skills on 3 threads`);
  });

  it('counts the same totals as the per-skill verdicts', () => {
    const r = cli(root, 'lint');
    const failures = parseJson(cli(root, 'lint', '--json'))
      .flatMap((s) => s.checks)
      .filter((c) => c.status === 'fail').length;
    expect(r.stdout).toContain(`linted ${SKILLS} skill(s) · ${failures} failure(s)`);
  });
});
