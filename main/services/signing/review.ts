import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReviewNode } from '../../../shared/lock/review';
import type { ProjectConfig } from '../../../shared/project/config';
import {
  describeSignature,
  readSigningPolicy,
  signatureVerdict,
  type SignatureState,
} from '../../../shared/policy/signature';
import { CodedError } from '../../../shared/result';
import { loadTrustedPublishers, verifyFolder } from './folder';

export const QUARANTINE_DIR = '.kitbash/quarantine';

/**
 * Check the signature of every staged skill of a review against the project's
 * `[policy]` (SPEC D213): each node gets its `signature`, a refusal joins its `policy`
 * lines (so it blocks like any policy finding), a warning joins the notices.
 * `dirs[i]` is node i's staged folder (undefined: already installed, not checked again).
 */
export function withSignatures(
  project: string,
  config: Pick<ProjectConfig, 'raw' | 'exceptions' | 'unconfirmedExceptions'>,
  nodes: readonly ReviewNode[],
  dirs: readonly (string | undefined)[],
): { nodes: ReviewNode[]; notices: string[] } {
  const policy = readSigningPolicy(config.raw);
  if (!policy.ok) throw CodedError.of(policy.error);
  const trusted = loadTrustedPublishers(project, policy.value);
  if (!trusted.ok) throw CodedError.of(trusted.error);
  const notices: string[] = [];
  const out = nodes.map((n, i) => {
    const dir = dirs[i];
    if (dir === undefined) return n;
    const state = verifyFolder(dir, trusted.value);
    if (!state.ok) throw CodedError.of(state.error);
    const v = signatureVerdict(state.value, policy.value, {
      skill: n.name,
      integrity: n.integrity,
      exceptions: config.exceptions,
      ...(config.unconfirmedExceptions ? { unconfirmed: config.unconfirmedExceptions } : {}),
    });
    if (v.warn) notices.push(`${n.name}: ${v.warn}`);
    const a = v.accepted;
    return {
      ...n,
      signature: state.value,
      policy: v.block ? [...n.policy, v.block] : n.policy,
      ...(a
        ? {
            accepted: [
              ...n.accepted,
              {
                id: a.check,
                detail: `signature ${describeSignature(state.value)}`,
                file: a.file,
                line: a.line,
                by: a.by,
                reason: a.reason,
              },
            ],
          }
        : {}),
    };
  });
  return { nodes: out, notices };
}

/** The lock's record of a verified signature: who signed and the signature file's digest. */
export function verifiedPin(s: SignatureState | undefined): { signedBy?: string; signature?: string } {
  return s?.state === 'verified' ? { signedBy: s.by, signature: s.digest } : {};
}

/** How a quarantined copy is announced, by the CLI and in the app's review alike. */
export function quarantineNotice(rel: string): string {
  return `quarantined: ${rel}/ (its signature fails verification; never delivered)`;
}

/**
 * Keep a copy of each staged skill whose signature failed under `.kitbash/quarantine/<name>/`
 * for inspection — never under `.kitbash/skills/`, so nothing is compiled or delivered from
 * it. A folder there that Skillsmith did not put there (no QUARANTINE.txt) is left alone.
 * Returns the folders written.
 */
export function quarantineInvalid(
  project: string,
  nodes: readonly ReviewNode[],
  dirs: readonly (string | undefined)[],
): string[] {
  const written: string[] = [];
  nodes.forEach((n, i) => {
    const dir = dirs[i];
    if (dir === undefined || n.signature?.state !== 'invalid') return;
    const rel = `${QUARANTINE_DIR}/${n.name}`;
    const target = join(project, rel);
    if (existsSync(target) && !existsSync(join(target, 'QUARANTINE.txt'))) return;
    const tmp = `${target}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(project, QUARANTINE_DIR), { recursive: true });
    cpSync(dir, tmp, { recursive: true, verbatimSymlinks: true });
    writeFileSync(
      join(tmp, 'QUARANTINE.txt'),
      `${n.name}@${n.version} from ${n.source.raw}\nsignature ${describeSignature(n.signature)}\nnot installed: a signature that fails verification is never delivered.\n`,
    );
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
    written.push(rel);
  });
  return written;
}
