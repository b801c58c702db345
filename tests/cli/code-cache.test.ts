/**
 * V8's code cache for the CLI's bundle (main/services/code-cache.ts), through the built CLI: the
 * first run keeps an entry per chunk it loaded, the next compiles from them and writes
 * nothing, a damaged entry is only a slower start, a folder other users could write to is
 * never used, and what a run cleans up is limited to entries that no longer match a bundle.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, type RunResult } from '../support/paths';
import { requireBuiltCli, tempProject } from './helpers';

let cache = '';
const run = (env: Record<string, string> = {}): RunResult =>
  runCli(['--version'], { env: { SKILLSMITH_CACHE_DIR: cache, SKILLSMITH_TIMINGS: '1', ...env } });
const counts = (r: { stderr: string }): { used: number; without: number } => {
  const m = /code cache(?: \(thread \d+\))?: (\d+) chunks? compiled from it, (\d+) without/.exec(r.stderr);
  return { used: Number(m?.[1] ?? NaN), without: Number(m?.[2] ?? NaN) };
};
/** The one folder of entries this bundle uses under the cache. */
const folder = (root = cache): string => {
  const versions = join(root, 'code');
  const [v] = readdirSync(versions);
  const [ns] = readdirSync(join(versions, v!)).filter((n) => /^[0-9a-f]{16}$/.test(n));
  return join(versions, v!, ns!);
};
const entries = (dir = folder()): string[] => readdirSync(dir).filter((n) => /^[0-9a-f]{40}$/.test(n));

beforeAll(() => requireBuiltCli());
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('the code cache of the built CLI', () => {
  it('keeps an entry per chunk on the first run and compiles from them on the next', () => {
    cache = mkdtempSync(join(tmpdir(), 'skillsmith-code-cache-'));
    const first = run();
    expect(first.code).toBe(0);
    expect(counts(first).used).toBe(0);
    expect(counts(first).without).toBeGreaterThan(0);
    const kept = entries();
    expect(kept).toHaveLength(counts(first).without);
    expect(statSync(folder()).mode & 0o077).toBe(0);
    const times = kept.map((n) => statSync(join(folder(), n)).mtimeMs);

    const second = run();
    expect(second.stdout).toBe(first.stdout);
    expect(counts(second)).toEqual({ used: kept.length, without: 0 });
    expect(kept.map((n) => statSync(join(folder(), n)).mtimeMs)).toEqual(times);
  });

  it('treats a damaged entry as missing, and writes it again', () => {
    const dir = folder();
    const [one] = entries(dir);
    writeFileSync(join(dir, one!), 'not a code cache');
    const r = run();
    expect(r.code).toBe(0);
    expect(counts(r).without).toBe(1);
    expect(statSync(join(dir, one!)).size).toBeGreaterThan(100);
    expect(counts(run()).without).toBe(0);
  });

  it('never uses or writes a folder other users can write to', () => {
    const dir = folder();
    chmodSync(dir, 0o777);
    try {
      const before = entries(dir);
      rmSync(join(dir, before[0]!));
      const r = run();
      expect(r.code).toBe(0);
      expect(counts(r)).toEqual({ used: NaN, without: NaN });
      expect(entries(dir)).toHaveLength(before.length - 1);
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(counts(run()).without).toBe(1);
  });

  it('is off with SKILLSMITH_CODE_CACHE=0', () => {
    const r = run({ SKILLSMITH_CODE_CACHE: '0' });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/code cache/);
  });

  it('drops entries of earlier builds and folders of bundles that are gone, and nothing else', () => {
    const dir = folder();
    const stale = join(dir, 'ab'.repeat(20));
    writeFileSync(stale, 'an entry of an earlier build');
    writeFileSync(join(dir, 'notes.txt'), 'not written by the cache');
    const gone = join(dir, '..', '0123456789abcdef');
    mkdirSync(gone);
    writeFileSync(join(gone, 'bundle'), join(cache, 'no-such-checkout', 'out', 'main'));
    writeFileSync(join(gone, 'cd'.repeat(20)), 'its entry');
    const kept = join(dir, '..', 'fedcba9876543210');
    mkdirSync(kept);
    writeFileSync(join(kept, 'bundle'), cache);
    // A missing entry makes the run write, and a run that writes cleans up.
    rmSync(join(dir, entries(dir)[0]!));
    expect(counts(run()).without).toBe(1);
    expect(readdirSync(dir)).not.toContain('ab'.repeat(20));
    expect(readdirSync(dir)).toContain('notes.txt');
    expect(readdirSync(join(dir, '..'))).not.toContain('0123456789abcdef');
    expect(readdirSync(join(kept))).toEqual(['bundle']);
  });
});

describe('worker threads of a process that uses the code cache', () => {
  const bundle = join(repoRoot, 'out', 'main');
  /** One scan job on the built scan worker, told to use the cache as `serve` tells it; what it answered and printed. */
  const scan = (root: string, cacheRoot: string): Promise<{ answer: { ok: boolean }; stderr: string }> =>
    new Promise((resolve, reject) => {
      const w = new Worker(join(bundle, 'scan-worker.js'), {
        workerData: { codeCache: bundle },
        env: { ...process.env, SKILLSMITH_CACHE_DIR: cacheRoot, SKILLSMITH_TIMINGS: '1' },
        stderr: true,
      });
      let answer: { ok: boolean } | undefined;
      let stderr = '';
      // The timings line comes after the entries are written.
      const done = () => {
        if (!answer || !/code cache \(thread \d+\)/.test(stderr)) return;
        void w.terminate();
        resolve({ answer, stderr });
      };
      w.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), done()));
      w.on('message', (m: { ok: boolean }) => ((answer = m), done()));
      w.on('error', reject);
      w.postMessage({ id: 1, job: { kind: 'scan', root } });
    });

  it('the scan worker compiles its chunks from it, and keeps them once its first job is answered', async () => {
    const cacheRoot = mkdtempSync(join(tmpdir(), 'skillsmith-code-cache-worker-'));
    const project = tempProject();
    try {
      const first = await scan(project, cacheRoot);
      expect(first.answer.ok).toBe(true);
      expect(counts(first).used).toBe(0);
      expect(counts(first).without).toBeGreaterThan(0);
      // The scan code itself, loaded only by the worker, has an entry made from what it ran.
      const jobs = readdirSync(join(bundle, 'chunks')).filter((n) => n.startsWith('jobs-'));
      expect(jobs).toHaveLength(1);
      const key = createHash('sha256')
        .update(readFileSync(join(bundle, 'chunks', jobs[0]!), 'utf8'))
        .digest('hex')
        .slice(0, 40);
      expect(entries(folder(cacheRoot))).toContain(key);

      const second = await scan(project, cacheRoot);
      expect(second.answer.ok).toBe(true);
      expect(counts(second)).toEqual({ used: counts(first).without, without: 0 });
    } finally {
      rmSync(cacheRoot, { recursive: true, force: true });
      rmSync(project, { recursive: true, force: true });
    }
  });
});
