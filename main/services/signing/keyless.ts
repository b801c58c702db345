import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type * as SigstoreBundle from '@sigstore/bundle';
import type * as SigstoreSpecs from '@sigstore/protobuf-specs';
import type * as SigstoreVerify from '@sigstore/verify';
import type { TrustMaterial } from '@sigstore/verify';
import { fileError, ok, type Result } from '../../../shared/result';
import { describeFsError } from '../fs/describe-error';
import SHIPPED_ROOT from './sigstore-trusted-root.json';

/*
 * Keyless Sigstore signatures (SPEC D215): a short-lived Fulcio certificate naming an OIDC
 * identity and its issuer, and a Rekor entry whose signed timestamp proves the signature was
 * made while that certificate was valid. Checked offline by @sigstore/verify against a trust
 * root file: Sigstore's public-good root ships with Skillsmith; `[policy] sigstore_trust_root`
 * names another (a newer copy, or a private Sigstore).
 */

const TRUSTED_ROOT_MEDIA_TYPE = 'application/vnd.dev.sigstore.trustedroot+json';

interface Sigstore {
  readonly bundleFromJSON: typeof SigstoreBundle.bundleFromJSON;
  readonly TrustedRoot: typeof SigstoreSpecs.TrustedRoot;
  readonly toSignedEntity: typeof SigstoreVerify.toSignedEntity;
  readonly toTrustMaterial: typeof SigstoreVerify.toTrustMaterial;
  readonly Verifier: typeof SigstoreVerify.Verifier;
}
let sigstore: Sigstore | undefined;

/**
 * The Sigstore packages, loaded on first use: the signing module sits on every install's
 * path, and loading them (about 25 modules) took a fifth of an install's start-up although
 * only a keyless signature needs them.
 */
function loadSigstore(): Sigstore {
  if (sigstore) return sigstore;
  const load = createRequire(__filename);
  const { bundleFromJSON } = load('@sigstore/bundle') as typeof SigstoreBundle;
  const { TrustedRoot } = load('@sigstore/protobuf-specs') as typeof SigstoreSpecs;
  const { toSignedEntity, toTrustMaterial, Verifier } = load('@sigstore/verify') as typeof SigstoreVerify;
  return (sigstore = { bundleFromJSON, TrustedRoot, toSignedEntity, toTrustMaterial, Verifier });
}

/** A publisher trusted by identity: the certificate's subject alternative name and OIDC issuer. */
export interface KeylessPublisher {
  readonly identity: string;
  readonly issuer: string;
}

/** The trust material of a trust root file (trusted_root.json), or of the shipped one. */
export function loadTrustRoot(project: string, file: string | undefined): Result<TrustMaterial> {
  let json: unknown = SHIPPED_ROOT;
  if (file !== undefined) {
    try {
      json = JSON.parse(readFileSync(resolve(project, file), 'utf8'));
    } catch (e) {
      const why = e instanceof SyntaxError ? 'not JSON' : describeFsError(e);
      return { ok: false, error: fileError('kitbash.toml', `[policy] sigstore_trust_root: ${file}: ${why}`) };
    }
  }
  const where = file ?? 'the shipped Sigstore trust root';
  const refuse = (why: string): Result<TrustMaterial> => ({
    ok: false,
    error: fileError('kitbash.toml', `[policy] sigstore_trust_root: ${where} is not a Sigstore trusted root (${why})`),
  });
  const media = (json as { mediaType?: unknown }).mediaType;
  if (typeof media !== 'string' || !media.startsWith(TRUSTED_ROOT_MEDIA_TYPE))
    return refuse(`no ${TRUSTED_ROOT_MEDIA_TYPE}`);
  let trust: TrustMaterial;
  try {
    const { toTrustMaterial, TrustedRoot } = loadSigstore();
    trust = toTrustMaterial(TrustedRoot.fromJSON(json));
  } catch (e) {
    return refuse(e instanceof Error ? e.message : String(e));
  }
  // Without a CA and a log nothing could ever verify: say so now, not at every signature.
  if (trust.certificateAuthorities.length === 0 || trust.tlogs.length === 0)
    return refuse('it names no certificate authority or no transparency log');
  return ok(trust);
}

export type KeylessCheck =
  | { readonly ok: true; readonly identity: string; readonly issuer: string; readonly trusted: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * Verify a bundle's Fulcio certificate, transparency-log entry and DSSE signature against
 * the trust root, then match the certificate's identity against the keyless publishers.
 * `ok: false` means the Sigstore layer itself failed: the signature is not what it claims.
 */
export function checkKeyless(
  bundle: unknown,
  trust: TrustMaterial,
  publishers: readonly KeylessPublisher[],
): KeylessCheck {
  let signer;
  try {
    const { bundleFromJSON, toSignedEntity, Verifier } = loadSigstore();
    signer = new Verifier(trust).verify(toSignedEntity(bundleFromJSON(bundle)));
  } catch (e) {
    return { ok: false, reason: `Sigstore verification failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  const identity = signer.identity?.subjectAlternativeName ?? '';
  const issuer = signer.identity?.extensions?.issuer ?? '';
  const trusted = publishers.some((p) => p.identity === identity && p.issuer === issuer);
  return { ok: true, identity, issuer, trusted };
}
