import type { RunPlanView, RunTarget } from '../../../shared/ipc/channels/runs';
import { formatError } from '../../../shared/result';
import { loadSkill } from '../../../shared/ksf/load';
import { describeBlocking } from '../../../shared/policy/verdict';
import { currentHost, probeBackend, probeReport } from '../sandbox/probe';
import type { BackendStatus } from '../sandbox/types';
import { installedSkills } from '../skills/locate';
import { readSkillTree } from '../skills/reader';
import { verdictFor } from '../verdict/index';
import { listScripts } from './script';

export function backendView(b: BackendStatus): RunPlanView['backend'] {
  return {
    backend: b.backend,
    works: b.works,
    ...(b.path ? { path: b.path } : {}),
    ...(b.version ? { version: b.version } : {}),
    ...(b.reason ? { reason: b.reason } : {}),
  };
}

/** Every installed skill as the Runs screen lists it: scripts, permissions as enforced here, verdict. */
export async function runTargets(root: string): Promise<{ backend: RunPlanView['backend']; skills: RunTarget[] }> {
  const host = currentHost();
  const backend = await probeBackend(host, { version: true });
  const skills: RunTarget[] = [];
  for (const l of installedSkills(root)) {
    const base: RunTarget = {
      dir: l.nameHint,
      name: l.nameHint,
      version: null,
      mode: null,
      scripts: [],
      permissions: null,
      produces: [],
      rows: [],
      problem: null,
      verdict: null,
    };
    if (l.kind !== 'folder') {
      skills.push({ ...base, problem: l.problem });
      continue;
    }
    const tree = readSkillTree(l.abs, l.display);
    const loaded = tree.ok ? loadSkill(tree.value, { nameHint: l.nameHint }) : tree;
    if (!loaded.ok) {
      skills.push({ ...base, scripts: listScripts(l.abs), problem: formatError(loaded.error) });
      continue;
    }
    const m = loaded.value.manifest;
    const report = await probeReport(host, {
      permissions: m.permissions,
      producesArtifacts: m.artifacts.produces.length > 0,
      surface: 'app',
    });
    const v = verdictFor(root, l.nameHint);
    skills.push({
      ...base,
      name: m.skill.name,
      version: m.skill.version,
      mode: m.targets.mode,
      scripts: listScripts(l.abs),
      permissions: { network: m.permissions.network, write: m.permissions.write, tools: [...m.permissions.tools] },
      produces: [...m.artifacts.produces],
      rows: report.rows.map((r) => ({ ...r })),
      ...(v.ok
        ? {
            verdict: {
              status: v.value.verdict.status,
              failures: v.value.verdict.failures,
              warnings: v.value.verdict.warnings,
              blocking: v.value.verdict.blocking.map((b) => describeBlocking(l.nameHint, b)),
              accepted: v.value.verdict.accepted.length,
            },
          }
        : {}),
    });
  }
  return { backend: backendView(backend), skills };
}
