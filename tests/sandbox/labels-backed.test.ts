/**
 * Issue 15, deliverable 9: every label that claims enforcement on this machine is backed
 * by an escape test that attempts the escape and would fail without the restriction (it
 * carries a control: the same script unconfined, or the granted direction).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentHost, probeReport } from '../../main/services/sandbox/probe';
import { LABEL, RESTRICTIONS, type RestrictionId } from '../../main/services/sandbox/types';

const E = 'escape.test.ts';
const H = 'escape-hold.test.ts';
const N = 'network-hold.test.ts';

/** The escape tests behind each restriction: [file, exact test title]. */
export const BACKING: Readonly<Record<RestrictionId, readonly (readonly [string, string])[]>> = {
  network: [
    [
      E,
      '(1) a TCP server on the host loopback is unreachable without network, and with it (network means the outside world)',
    ],
    [H, '(15.2) with network = true a test host in another namespace is reached; without it, not'],
    [H, "(15.2) with network = true the host's loopback and its own addresses are not reached"],
    [N, "the host's IPv6 link-local address is not reached; from the host itself it is"],
    [N, "none of the host's own non-loopback addresses, IPv4 or IPv6, is reached; from the host each is"],
    [N, 'resolvers on the loopback or at a host address are left out; the outside one answers'],
    [
      'cli.test.ts',
      'shows how network and write read when granted; without pasta a network = true skill is refused, others run',
    ],
  ],
  'unix-sockets': [
    [E, '(1b) a Unix socket a host daemon listens on cannot be reached, with or without network'],
    [H, '(15.2) abstract and path Unix sockets are not reached, with or without network; /run is absent'],
  ],
  filesystem: [
    [
      E,
      '(3) writes: only scratch without write permission; the workspace too with it; never the skill, other skills, the lock or outside',
    ],
    [H, '(15.1) protected paths that do not exist cannot be created; existing project files are written'],
    [H, "(15.1) in a monorepo the parent repository's .git is out of reach"],
    [
      'write-apply.test.ts',
      'a write-granted script creates REVIEW.md and a new folder at the root; every protected write is refused and named',
    ],
    ['write-apply.test.ts', 'a symlink the run makes to outside the project is not applied; one inside it is'],
    [
      'write-apply.test.ts',
      'a hard link is never applied as a link: an outside file stays untouched, a linked copy is its own file',
    ],
  ],
  reading: [[H, '(15.3) system folders and the project are visible; secrets, other homes and host folders are not']],
  'skill-folder': [
    [
      E,
      '(3) writes: only scratch without write permission; the workspace too with it; never the skill, other skills, the lock or outside',
    ],
  ],
  pinning: [[H, '(15.5) a nested .git, a special file, a changed executable bit are refused; the pinned folder runs']],
  home: [[E, '(4) a key planted in the real $HOME/.ssh is not readable; $HOME is empty and private']],
  environment: [[E, '(5) a secret in the parent environment does not reach the script, unless the run passes it']],
  processes: [
    [E, '(6) a script running past the timeout is killed and reported; one inside it finishes'],
    [E, '(7) a process left running when the script exits is killed and reported; one the script waits for finishes'],
  ],
  'limit-processes': [
    [H, '(15.4) the process cap stops a fork flood (and says so); under the default cap the same spawns all start'],
  ],
  'limit-files': [
    [H, '(15.4) open files, CPU time, memory and scratch are capped; under the defaults the same work completes'],
  ],
  'limit-cpu': [
    [H, '(15.4) open files, CPU time, memory and scratch are capped; under the defaults the same work completes'],
  ],
  'limit-memory': [
    [H, '(15.4) open files, CPU time, memory and scratch are capped; under the defaults the same work completes'],
  ],
  'limit-scratch': [
    [H, '(15.4) open files, CPU time, memory and scratch are capped; under the defaults the same work completes'],
  ],
  privileges: [[E, 'no capabilities inside: a remount of / as writable is refused']],
  output: [[E, '(8) a stdout flood is truncated at the cap and reported; output under the cap arrives whole']],
  tools: [],
};

/** The source of one test: from its title to the next test of the file. */
function testBody(file: string, title: string): string | undefined {
  const src = readFileSync(join(__dirname, file), 'utf8');
  const at = [`'${title}'`, `"${title}"`].map((q) => src.indexOf(q)).find((i) => i >= 0);
  if (at === undefined) return undefined;
  const next = src.slice(at).search(/\n {2}it(\.skipIf\([^)]*\))?\(/);
  return next < 0 ? src.slice(at) : src.slice(at, at + next);
}

describe('labels are backed by escape tests', () => {
  it('every restriction row has its escape tests, each present and carrying a control', () => {
    for (const id of RESTRICTIONS) {
      for (const [file, title] of BACKING[id]) {
        const body = testBody(file, title);
        expect([id, title, body !== undefined]).toEqual([id, title, true]);
        // A control shows the attempt succeeds where the restriction is absent or not applied.
        expect([id, title, /unconfinedHost\(\)|\/\/ control:|unconfined: true/.test(body!)]).toEqual([id, title, true]);
      }
    }
  });

  it('every label claiming enforcement here (strictest and granted) names at least one backing test', async () => {
    const report = await probeReport(currentHost(), { granted: true });
    expect(report.granted?.map((r) => r.id)).toEqual(['network', 'filesystem']);
    for (const row of [...report.rows, ...(report.granted ?? [])]) {
      if (row.label === LABEL.advisory) continue;
      expect([row.id, row.label, BACKING[row.id].length > 0]).toEqual([row.id, row.label, true]);
    }
    // tools never claims enforcement: nothing may back it.
    expect(report.rows.find((r) => r.id === 'tools')?.label).toBe(LABEL.advisory);
  });
});

describe('the review dialog and the Runs tab show the same labels', () => {
  it('a declared network or write permission is labelled with the row the Runs tab shows for that skill', async () => {
    const { withEnforcement } = await import('../../main/services/install/enforcement');
    const permissions = [
      { permission: 'network', declared: true },
      { permission: 'write', declared: true },
    ];
    const review = { nodes: [{ permissions }] } as unknown as Parameters<typeof withEnforcement>[0];
    const labelled = await withEnforcement(review);
    const runsTab = (await probeReport(currentHost(), { permissions: { network: true, write: true, tools: [] } })).rows;
    const shown = labelled.nodes[0]!.permissions;
    for (const [perm, id] of [
      ['network', 'network'],
      ['write', 'filesystem'],
    ] as const) {
      const row = runsTab.find((r) => r.id === id)!;
      const entry = shown.find((p) => p.permission === perm)!.enforcement!;
      expect(entry).toEqual(
        row.label === LABEL.advisory
          ? { label: 'advisory', detail: row.what }
          : { label: 'enforced', detail: `${row.label}: ${row.what}` },
      );
    }
  });

  it('probes the network namespace only when a network row must say whether it holds', async () => {
    const host = currentHost();
    const quiet = await probeReport(host, { permissions: { network: false, write: true, tools: [] } });
    // Without it the review of a skill that declares no network pays for no pasta start.
    expect(quiet.status.netns).toBeUndefined();
    expect(quiet.granted).toBeUndefined();
    const asked = await probeReport(host, { permissions: { network: true, write: false, tools: [] } });
    if (asked.status.works && asked.status.backend === 'bubblewrap') expect(asked.status.netns).toBeDefined();
    // The rows of a skill without network read the same either way.
    const full = await probeReport(host, { permissions: { network: false, write: true, tools: [] }, granted: true });
    expect(quiet.rows).toEqual(full.rows);
  });
});
