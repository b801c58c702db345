import { sarifLog } from '../../../shared/lint/report/sarif';
import type { FindingKind, VerifyReport } from './index';

const HELP: Record<FindingKind, string> = {
  'project-unreadable': 'kitbash.toml must load for the project to be verified.',
  'lock-unreadable': 'kitbash.lock must load: it holds the pins installed skills are checked against.',
  'lock-missing': 'Installed skills must be pinned in kitbash.lock.',
  'skill-broken': 'An installed skill folder must load.',
  'skill-drift': "An installed skill's files must hash to the integrity kitbash.lock pins.",
  'skill-unpinned': 'Every installed skill must have a kitbash.lock pin.',
  'pin-without-skill': 'Every kitbash.lock pin must name an installed skill.',
  'dependency-missing': "Every skill a skill's manifest depends on must be installed.",
  signature: "A skill's signature must verify, and be from a trusted publisher where [policy] require_signed says so.",
  'skill-withheld': 'An installed skill that compile does not deliver (blocking findings).',
  'delivery-differs': "An agent's file must be what compile writes from the installed skills.",
  'delivery-stale': 'An agent folder holds generated output compile would remove.',
  'delivery-missing': 'Compile would write this file: the project was not compiled since its skills changed.',
  'compile-unchecked': 'The compile plan could not be made, so delivered files were not checked.',
  interrupted: 'An interrupted install or compile waits for recovery (any skillsmith write recovers it).',
};

/**
 * The verify report as SARIF (SPEC D204): one rule per finding kind present, one result per
 * finding. A finding about a skill folder points at its SKILL.md, since code scanning
 * anchors results to files.
 */
export function renderVerifySarif(report: VerifyReport, version: string): string {
  const kinds = [...new Set(report.findings.map((f) => f.kind))].sort();
  const rules = kinds.map((id) => ({
    id,
    name: id,
    shortDescription: { text: `skillsmith verify: ${id}` },
    fullDescription: { text: HELP[id] },
    properties: { tags: ['skillsmith', 'agent-skills', 'supply-chain'] },
  }));
  const results = report.findings.map((f) => ({
    ruleId: f.kind,
    level: f.level,
    message: { text: `${f.path}: ${f.message}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: isSkillFolder(f.path) ? `${f.path}/SKILL.md` : f.path },
          region: { startLine: 1 },
        },
      },
    ],
  }));
  return sarifLog(version, rules, results);
}

function isSkillFolder(path: string): boolean {
  return /^\.kitbash\/skills\/[^/]+$/.test(path);
}
