import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../../../shared/lock/sha256';
import { canonicalSource, type SourceSpec } from '../../../shared/lock/source';
import { parseIndex, wellknownSourceString, type IndexEntry } from '../../../shared/lock/wellknown';
import { CodedError, formatError } from '../../../shared/result';
import { httpGet } from '../net/http-get';
import { sourceCaps } from '../sources/copy';
import { discardTempDir, makeTempDir } from '../sources/temp';
import type { Checkout } from '../sources';
import { archiveFormat, unpackArchive } from './archive';
import type { SourceListing, SourceSkill } from './listing';

type WellknownSpec = Extract<SourceSpec, { kind: 'wellknown' }>;

/** What fetching from an index may cost (SPEC D322); archives are capped by the source caps. */
export const WELLKNOWN_LIMITS = {
  index: 4 * 1024 * 1024,
  skillMd: 1024 * 1024,
  maxRedirects: 5,
  timeoutMs: 60_000,
} as const;

/**
 * GET over HTTPS only, as D322 bounds it; a redirect may reach another host (an index's files
 * can live on a CDN: the digest vouches for them). `what` names the thing in the error.
 */
async function fetchHttps(url: string, maxBytes: number, what: string) {
  const got = await httpGet({
    url,
    maxBytes,
    schemes: ['https:'],
    redirects: WELLKNOWN_LIMITS.maxRedirects,
    timeoutMs: WELLKNOWN_LIMITS.timeoutMs,
    otherHosts: true,
  });
  if (!got.ok) throw new CodedError(got.error.code, `${what}: ${got.error.message}`);
  const b = got.value.body;
  return { ...got.value, bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
}

const NOTHING = (): Promise<void> => Promise.resolve();

/**
 * Open a discovery index source. The index is fetched and read; nothing else is until a skill
 * is asked for. A source naming one skill (`#name`) comes back as that skill's folder, fetched,
 * digest-verified and unpacked; the whole index comes back empty, with its listing (`offered`)
 * and `materialize`, which fetches one pick into a folder of its own when the batch stages it.
 */
export async function openWellknown(spec: WellknownSpec): Promise<Checkout> {
  const got = await fetchHttps(spec.index, WELLKNOWN_LIMITS.index, 'skills index');
  const parsed = parseIndex(got.bytes.toString('utf8'), spec.index);
  if (!parsed.ok) throw new CodedError('invalid-input', formatError(parsed.error));
  const { entries, skipped } = parsed.value;
  const dir = await makeTempDir('clone');
  const dispose = () => discardTempDir(dir, 'clone');
  const caps = sourceCaps();
  const fetched = new Map<string, Checkout>();
  const materialize = async (name: string): Promise<Checkout> => {
    const had = fetched.get(name);
    if (had) return had;
    const entry = entries.find((e) => e.name === name);
    if (!entry)
      throw new CodedError(
        'invalid-input',
        `no skill named "${name}" in ${spec.index} (it has: ${entries.map((e) => e.name).join(', ') || 'none'})`,
      );
    if (entry.problem) throw new CodedError('invalid-input', `${name}: ${entry.problem}`);
    const skillDir = join(dir, name);
    await fetchArtifact(entry, got.url, skillDir, caps);
    const one: WellknownSpec = {
      kind: 'wellknown',
      raw: wellknownSourceString(spec.index, name),
      index: spec.index,
      skill: name,
    };
    const co: Checkout = {
      spec: one,
      canonical: canonicalSource(one),
      skillDir,
      siblingsDir: dir,
      repoDir: dir,
      subpath: name,
      digest: entry.digest,
      label: one.raw,
      sourceFor: (rel) => wellknownSourceString(spec.index, rel),
      dispose: NOTHING,
    };
    fetched.set(name, co);
    return co;
  };
  try {
    if (spec.skill !== undefined) return { ...(await materialize(spec.skill)), spec, label: spec.raw, dispose };
    const skills = entries.map((e): SourceSkill => ({
      name: e.name,
      description: e.description,
      rel: e.name,
      source: wellknownSourceString(spec.index, e.name),
      artifact: e.type,
      ...(e.problem ? { problem: e.problem } : {}),
    }));
    const offered: SourceListing = { single: false, skills, collections: [], notes: skipped };
    return {
      spec,
      canonical: canonicalSource(spec),
      skillDir: dir,
      siblingsDir: dir,
      repoDir: dir,
      subpath: '',
      label: spec.raw,
      offered,
      materialize,
      sourceFor: (rel) => wellknownSourceString(spec.index, rel),
      dispose,
    };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/**
 * Fetch one entry's artifact, check it against the index's digest before anything is
 * written, then put it in `dest`: the SKILL.md as it came, or the archive unpacked.
 */
async function fetchArtifact(
  entry: IndexEntry,
  indexUrl: string,
  dest: string,
  caps: ReturnType<typeof sourceCaps>,
): Promise<void> {
  let url: string;
  try {
    url = new URL(entry.url, indexUrl).href;
  } catch {
    throw new CodedError('invalid-input', `${entry.name}: the index's url "${entry.url}" is not a URL`);
  }
  const max = entry.type === 'skill-md' ? WELLKNOWN_LIMITS.skillMd : caps.maxBytes;
  const got = await fetchHttps(url, max, entry.name);
  const actual = `sha256:${sha256Hex(got.bytes)}`;
  if (actual !== entry.digest)
    throw new CodedError(
      'forbidden',
      `${entry.name}: digest mismatch — the index says ${entry.digest}, ${url} hashes to ${actual}; nothing unpacked or installed`,
    );
  await mkdir(dest, { mode: 0o755 });
  if (entry.type === 'skill-md') {
    await writeFile(join(dest, 'SKILL.md'), got.bytes, { flag: 'wx', mode: 0o644 });
    return;
  }
  const format = archiveFormat(got.contentType, got.url, got.bytes);
  if (!format)
    throw new CodedError(
      'invalid-input',
      `${entry.name}: ${url} is neither a .tar.gz nor a .zip (served as ${got.contentType ?? 'no type'})`,
    );
  await unpackArchive(got.bytes, format, dest, caps, entry.name);
}
