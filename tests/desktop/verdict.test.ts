/**
 * One verdict everywhere in the app: the dashboard row, the drawer's checks, the Runs tab's
 * target and its plan all agree for the same skill, and the example workspace's
 * `dependency-audit` (remote-exec in scripts/audit.sh) is refused by the Runs tab until a
 * reviewed exception accepts that exact finding of that exact version.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/dispatch';
import type { Session } from '../../main/ipc/session';
import { scanProject } from '../../main/services/dashboard/scan';
import { verdictFor } from '../../main/services/verdict/index';
import type { RunTarget } from '../../shared/ipc/channels/runs';
import { exceptionToml } from '../../shared/policy/exceptions';
import { confirmAllExceptions } from '../support/exceptions';
import { scratch, testPlatform, testSession, type Scratch } from './helpers';

let s: Scratch;
let session: Session;
beforeEach(() => {
  s = scratch();
  ({ session } = testSession(testPlatform(s.dataDir)));
  session.open(s.project);
});
afterEach(() => {
  session.dispose();
  s.cleanup();
});

async function call<T>(name: string, req: unknown): Promise<T> {
  const env = await dispatch(name, req, { session });
  if (!env.ok) throw new Error(`${name}: ${env.error.message}`);
  return env.value as T;
}

describe('one verdict for the dashboard, the drawer and the Runs tab', () => {
  it('every skill: the drawer checks add up to the row counts, and the Runs tab shows the same counts', async () => {
    const d = scanProject(s.project);
    const { skills: targets } = await call<{ skills: RunTarget[] }>('runs.targets', {});
    for (const row of d.skills) {
      const detail = await call<{ checks: { status: string }[] }>('skills.get', { dir: row.dir });
      const fromDrawer = {
        failures: detail.checks.filter((c) => c.status === 'fail').length,
        warnings: detail.checks.filter((c) => c.status === 'warn').length,
      };
      expect(fromDrawer, row.dir).toEqual({ failures: row.lint.failures, warnings: row.lint.warnings });
      const t = targets.find((x) => x.dir === row.dir)!;
      expect(
        { failures: t.verdict?.failures, warnings: t.verdict?.warnings, blocking: t.verdict?.blocking.length },
        row.dir,
      ).toEqual({ failures: row.lint.failures, warnings: row.lint.warnings, blocking: row.lint.blocking });
    }
    expect(d.totals.failures).toBe(d.skills.reduce((n, r) => n + r.lint.failures, 0));
    expect(d.skills.find((r) => r.dir === 'dependency-audit')!.lint).toMatchObject({
      status: 'fail',
      blocking: 1,
      accepted: 0,
    });
  });

  it('the Runs tab refuses dependency-audit with the finding and the way out; the clean prereview still plans a run', async () => {
    const audit = await call<{ ok: boolean; refusal?: { reason: string; message: string } }>('runs.plan', {
      skill: 'dependency-audit',
      mode: 'run',
      script: 'audit.sh',
      args: [],
    });
    expect(audit.ok).toBe(false);
    expect(audit.refusal?.reason).toBe('blocked');
    expect(audit.refusal?.message).toMatch(
      /dependency-audit: remote-exec — .* at scripts\/audit\.sh:5\. To resolve: fix the skill/,
    );
    const pre = await call<{ ok: boolean; refusal?: { reason: string } }>('runs.plan', {
      skill: 'prereview',
      mode: 'gate',
      args: [],
    });
    expect(pre.refusal?.reason).not.toBe('blocked');
  });

  it('with an exception for that exact finding: accepted everywhere, nothing blocking; the dashboard keeps it visible as a warning', async () => {
    const v = verdictFor(s.project, 'dependency-audit');
    if (!v.ok) throw new Error(v.error.message);
    appendFileSync(
      join(s.project, 'kitbash.toml'),
      `\n${exceptionToml({ skill: 'dependency-audit', integrity: v.value.integrity, check: 'remote-exec', file: 'scripts/audit.sh', line: 5, by: 'ana', reason: 'read the installer' })}`,
    );
    confirmAllExceptions(s.project);
    const row = scanProject(s.project).skills.find((r) => r.dir === 'dependency-audit')!;
    expect(row.lint).toMatchObject({ blocking: 0, accepted: 1, failures: 0 });
    const problem = scanProject(s.project).problems.find((p) => p.source === 'remote-exec')!;
    expect(problem).toMatchObject({
      severity: 'warning',
      message: expect.stringMatching(
        /accepted by exception for this exact version \(scripts\/audit\.sh:5 by ana: read the installer\)/,
      ),
    });
    const audit = await call<{ ok: boolean; refusal?: { reason: string } }>('runs.plan', {
      skill: 'dependency-audit',
      mode: 'run',
      script: 'audit.sh',
      args: [],
    });
    expect(audit.refusal?.reason).not.toBe('blocked');
  });
});
