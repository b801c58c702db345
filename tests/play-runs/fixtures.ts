/**
 * Projects for the playground and runs suites (unit and e2e): installed, pinned skills —
 * one with a skill.spec.yml, one whose script tries the network with network = false, a
 * slow one to cancel — and, when the corpus is there, a corpus spec copied into the temp
 * project (never into the repository).
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { skillIntegrity, writeLock, type LockEntry } from '../../main/services/lock/index';
import { corpusDir } from '../support/paths';

export const TRIAGE_SPEC = `# The triage spec the playground suites play with.
schema: skillspec/v0
id: example.triage
title: Triage
description: Route a request to investigate, hotfix or release.
routes:
  - id: investigate
    label: Investigate first
    rank: 1
  - id: hotfix
    label: Hot fix
    rank: 2
  - id: release
    label: Release
    rank: 3
rules:
  - id: broken_things
    when:
      user_says_any: ["bug", "broken", "crash"]
    prefer: hotfix
    forbid: [force_push]
    reason: a defect is reported
  - id: shipping
    when:
      user_says_all_groups: [["ship", "release"], ["today", "now"]]
    prefer: release
    route_order: [release, hotfix, investigate]
    allow:
      tag: true
    elicit: [release_channel]
    after_success: [announce]
    reason: the user wants to ship now
elicitations:
  release_channel:
    question: Which channel should this release go to?
    choices:
      - id: stable
        label: Stable
      - id: beta
        label: Beta
commands:
  announce:
    template: echo shipped
tests:
  # Keep these in file order: the suites count on it.
  - name: a crash goes to hotfix
    input: the app has a crash on start
    expect:
      route: hotfix
      matched_rules: [broken_things]
  - name: shipping today
    input: ship it today
    expect:
      route: release
      elicit: [release_channel]
  - name: deliberately wrong
    input: please look at the logs
    expect:
      route: hotfix
`;

/** Tries to reach a TCP address (default: a public one) and says what happened. */
export const NET_SCRIPT = `#!/usr/bin/env node
const s = require('net').connect({ host: process.env.PROBE_HOST || '1.1.1.1', port: Number(process.env.PROBE_PORT || 80) });
s.setTimeout(4000);
s.on('connect', () => { console.log('connected: the network was reachable'); process.exit(0); });
s.on('error', (e) => { console.error('network blocked: ' + e.code); process.exit(7); });
s.on('timeout', () => { console.error('network blocked: no answer'); process.exit(7); });
`;

export const SLOW_SCRIPT = `#!/usr/bin/env node
let n = 0;
const t = setInterval(() => { n++; console.log('tick ' + n); if (n >= 600) { clearInterval(t); } }, 100);
`;

export const HELLO_SCRIPT = `#!/bin/sh
echo "hello from $(basename "$0")"
echo "to stderr" >&2
exit 3
`;

interface SkillFiles {
  readonly toml?: string;
  readonly files: Readonly<Record<string, string>>;
}

const skillToml = (name: string, extra = ''): string =>
  [
    `[skill]`,
    `name = "${name}"`,
    `version = "1.0.0"`,
    `description = "A skill the playground and runs suites use."`,
    '',
    '[context]',
    'budget = 1500',
    '',
    extra,
  ].join('\n');

export function writeSkill(root: string, name: string, s: SkillFiles): void {
  const dir = join(root, '.kitbash', 'skills', name);
  const files: Record<string, string> = {
    'SKILL.md': `# ${name}\n\nA skill the playground and runs suites use.\n`,
    'skill.toml': skillToml(name, s.toml),
    ...s.files,
  };
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    if (rel.startsWith('scripts/')) chmodSync(abs, 0o755);
  }
}

function makeWritable(p: string): void {
  const st = statSync(p);
  chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
  if (st.isDirectory()) for (const e of readdirSync(p)) makeWritable(join(p, e));
}

/** Pin every installed skill in kitbash.lock with its real integrity. */
export function pinAll(root: string): void {
  const skills = join(root, '.kitbash', 'skills');
  const entries: LockEntry[] = readdirSync(skills)
    .sort()
    .map((name) => {
      const h = skillIntegrity(join(skills, name));
      if (!h.ok) throw new Error(`cannot hash ${name}`);
      return { name, version: '1.0.0', source: `file:./src/${name}`, integrity: h.value };
    });
  writeLock(root, entries);
}

export const CORPUS_SPEC = join(corpusDir, 'skillspec', 'valid', '.claude', 'skills', 'rote-shell');
export const haveCorpusSpec = (): boolean => existsSync(join(CORPUS_SPEC, 'skill.spec.yml'));

export interface PlayProject {
  readonly root: string;
  readonly project: string;
  readonly dataDir: string;
  cleanup(): void;
}

/**
 * A project with `triage` (spec), `net-probe` (network = false, scripts/fetch.js),
 * `hello` (scripts/hello.sh exits 3), `scratch` (for broken specs), `slow` (ticks for a minute), `check-gate` (a gate
 * whose verdict is its argument) and, when the corpus is
 * present, `rote-shell` copied from it. Everything pinned.
 */
export function playProject(): PlayProject {
  const root = mkdtempSync(join(tmpdir(), 'skillsmith-play-'));
  const project = join(root, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'kitbash.toml'), '[targets]\nenabled = ["claude-code"]\n');
  writeSkill(project, 'triage', { files: { 'skill.spec.yml': TRIAGE_SPEC } });
  writeSkill(project, 'net-probe', {
    toml: '[permissions]\nnetwork = false\n',
    files: { 'scripts/fetch.js': NET_SCRIPT },
  });
  writeSkill(project, 'hello', { files: { 'scripts/hello.sh': HELLO_SCRIPT } });
  // Its skill.spec.yml is rewritten by the suites (broken specs); nothing runs it.
  writeSkill(project, 'scratch', { files: {} });
  writeSkill(project, 'slow', { files: { 'scripts/slow.js': SLOW_SCRIPT } });
  writeSkill(project, 'check-gate', {
    toml: '[targets]\nmode = "gate"\n',
    files: { 'scripts/gate.sh': '#!/bin/sh\necho "verdict: $1"\n[ "$1" = pass ]\n' },
  });
  if (haveCorpusSpec()) {
    const dest = join(project, '.kitbash', 'skills', 'rote-shell');
    cpSync(CORPUS_SPEC, dest, { recursive: true });
    makeWritable(dest);
    if (!existsSync(join(dest, 'SKILL.md')))
      writeFileSync(join(dest, 'SKILL.md'), '# rote-shell\n\nThe corpus spec, copied for the playground suite.\n');
    if (!existsSync(join(dest, 'skill.toml'))) writeFileSync(join(dest, 'skill.toml'), skillToml('rote-shell'));
  }
  pinAll(project);
  return { root, project, dataDir: join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
