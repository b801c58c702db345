import { plural } from '../../../shared/text/format';
import { createRequire } from 'node:module';
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { resolveInside } from '../fs/contain';
import type Ajv2020Type from 'ajv/dist/2020';
import type addFormatsType from 'ajv-formats';
import benchmark from '../../../spec/schema/artifacts/benchmark@1.json';
import findings from '../../../spec/schema/artifacts/findings@1.json';
import plan from '../../../spec/schema/artifacts/plan@1.json';
import verify from '../../../spec/schema/artifacts/verify@1.json';

/** The schemas Skillsmith knows (spec/schema/artifacts/). */
const SCHEMAS: Readonly<Record<string, object>> = {
  'benchmark@1': benchmark,
  'findings@1': findings,
  'plan@1': plan,
  'verify@1': verify,
};

export const ARTIFACTS_DIR = join('.kitbash', 'artifacts');
const MAX_ARTIFACT_BYTES = 8 * 1024 * 1024;

type Validate = ReturnType<Ajv2020Type['compile']>;
const compiled = new Map<string, Validate>();

/** ajv generates code: loaded on first use, in main/ only (as manifest-schema.ts does). */
function validatorFor(ref: string): Validate | undefined {
  const schema = SCHEMAS[ref];
  if (!schema) return undefined;
  let v = compiled.get(ref);
  if (!v) {
    const load = createRequire(__filename);
    const Ajv2020 = (load('ajv/dist/2020') as { default: typeof Ajv2020Type }).default;
    const addFormats = (load('ajv-formats') as { default: typeof addFormatsType }).default;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    v = ajv.compile(schema);
    compiled.set(ref, v);
  }
  return v;
}

export function knownArtifact(ref: string): boolean {
  return ref in SCHEMAS;
}

/** One artifact file on disk: `<type>.json` or `<type>/<id>.json`, project-relative. */
export interface ArtifactFile {
  readonly ref: string;
  readonly rel: string;
  readonly abs: string;
  readonly id?: string;
  readonly mtimeMs: number;
}

/**
 * Every file of a produced type under `.kitbash/artifacts/`, in name order. Only real
 * files and folders count: a symlink (which a script could point at any file the
 * parent can read) is not an artifact.
 */
export function listArtifacts(projectRoot: string, ref: string): ArtifactFile[] {
  const type = ref.slice(0, ref.indexOf('@'));
  const dir = resolveInside(projectRoot, ARTIFACTS_DIR);
  if (!dir || !isKind(dir, 'dir')) return [];
  const out: ArtifactFile[] = [];
  const top = join(dir, `${type}.json`);
  const st = fileStat(top);
  if (st) out.push({ ref, rel: `.kitbash/artifacts/${type}.json`, abs: top, mtimeMs: st.mtimeMs });
  const sub = join(dir, type);
  const names = isKind(sub, 'dir')
    ? readdirSync(sub)
        .filter((n) => n.endsWith('.json'))
        .sort()
    : [];
  for (const n of names) {
    const abs = join(sub, n);
    const s = fileStat(abs);
    if (s)
      out.push({
        ref,
        rel: `.kitbash/artifacts/${type}/${n}`,
        abs,
        id: n.slice(0, -'.json'.length),
        mtimeMs: s.mtimeMs,
      });
  }
  return out;
}

function isKind(p: string, kind: 'dir' | 'file'): boolean {
  try {
    const s = lstatSync(p);
    return kind === 'dir' ? s.isDirectory() : s.isFile();
  } catch {
    return false;
  }
}

function fileStat(p: string): { mtimeMs: number } | undefined {
  try {
    const s = lstatSync(p);
    return s.isFile() ? { mtimeMs: s.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes of a regular file (never through a symlink, never a FIFO), or why not. */
function readArtifact(abs: string): Buffer | string {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    return `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return 'is not a regular file';
    if (st.size > MAX_ARTIFACT_BYTES) return 'is larger than 8 MiB — not read';
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < st.size) {
      const n = readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } finally {
    closeSync(fd);
  }
}

export interface ArtifactVerdict {
  readonly ref: string;
  readonly file: string;
  /**
   * `pass`: valid and not failing; `fail`: valid, and its content is a failing verdict; `invalid`: not a valid
   * document.
   */
  readonly status: 'pass' | 'fail' | 'invalid';
  /** One line: the counts, the failing verdict, or the first schema problems. */
  readonly detail: string;
  /** Gate runs: whether this run's script wrote it (false: it was there before). */
  readonly fresh?: boolean;
}

/**
 * Validate one artifact against its schema and read its verdict. A finding of severity
 * `error` fails findings@1; `verdict: "fail"` fails verify@1; plan@1 and benchmark@1
 * pass when valid. The producer must be the gate itself, and `<type>/<id>.json` must
 * carry that id.
 */
export function judgeArtifact(file: ArtifactFile, producer: string): ArtifactVerdict {
  const base = { ref: file.ref, file: file.rel };
  const validate = validatorFor(file.ref);
  if (!validate)
    return {
      ...base,
      status: 'invalid',
      detail: `no schema for ${file.ref} in spec/schema/artifacts/ — cannot validate it`,
    };
  const bytes = readArtifact(file.abs);
  if (typeof bytes === 'string') return { ...base, status: 'invalid', detail: bytes };
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    // Never echo the content: the message would quote the start of whatever was written.
    return { ...base, status: 'invalid', detail: 'is not valid JSON' };
  }
  if (!validate(doc)) {
    const problems = (validate.errors ?? []).slice(0, 3).map((e) => {
      const at = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '(root)';
      return `${at} ${e.message ?? 'is invalid'}`;
    });
    return { ...base, status: 'invalid', detail: `does not match ${file.ref}: ${problems.join('; ')}` };
  }
  const d = doc as Record<string, unknown>;
  if (d.skill !== producer)
    return {
      ...base,
      status: 'invalid',
      detail: `was written for "${String(d.skill)}", not by this gate (${producer})`,
    };
  if (file.id !== undefined && d.id !== file.id)
    return {
      ...base,
      status: 'invalid',
      detail: `is stored as ${file.id}.json but its id is ${JSON.stringify(d.id ?? null)}`,
    };
  switch (file.ref) {
    case 'findings@1': {
      const list = d.findings as Array<{ severity: string }>;
      const count = (s: string): number => list.filter((f) => f.severity === s).length;
      const summary = `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('note'), 'note')}`;
      return { ...base, status: count('error') > 0 ? 'fail' : 'pass', detail: summary };
    }
    case 'verify@1': {
      const checks = d.checks as Array<{ status: string }>;
      const failed = checks.filter((c) => c.status === 'fail').length;
      return {
        ...base,
        status: d.verdict === 'fail' ? 'fail' : 'pass',
        detail: `verdict ${String(d.verdict)} (${plural(checks.length, 'check')}, ${failed} failed)`,
      };
    }
    case 'plan@1':
      return { ...base, status: 'pass', detail: plural((d.steps as unknown[]).length, 'step') };
    default:
      return { ...base, status: 'pass', detail: plural((d.measurements as unknown[]).length, 'measurement') };
  }
}
