import { plural } from '../../shared/text/format';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import Module from 'node:module';
import { dirname, join, sep } from 'node:path';
import vm from 'node:vm';
import { isMainThread, threadId } from 'node:worker_threads';
import { cacheDir } from './skills/index-file';

/**
 * V8's code cache for the CLI's own bundle. Node 20 has no `module.enableCompileCache`
 * (22.1+), so every process parsed and compiled the same chunks again: in `serve`, the
 * app's loopback host, that was about 200 ms of its main thread in the first second, while
 * the page waited for its first answers. Here each chunk of the bundle is compiled with the
 * bytes V8 kept from an earlier run, and the functions it compiled are kept for the next one
 * (see CodeCache.keep). The dashboard's scan thread is handed the same bundle folder
 * (codeCacheBundle), so that its chunks come from the cache as well.
 *
 * Only the bundle's own files go this way (everything else takes Node's loader untouched).
 * An entry is found by the SHA-256 of the source it was made from, and V8 checks it again
 * (its version, flags and a checksum) and ignores one that does not match, so a stale or
 * torn entry only costs a normal compile. The folder holds code that runs, so it is used only
 * when it is a real directory of this user that nobody else can write to.
 */
export function useCodeCache(bundleDir: string, env: NodeJS.ProcessEnv = process.env): CodeCache | undefined {
  if (env.SKILLSMITH_CODE_CACHE === '0') return undefined;
  const bundle = bundleDir.endsWith(sep) ? bundleDir : bundleDir + sep;
  const versions = join(cacheDir(env), 'code', `${process.versions.v8}-${process.arch}`);
  const dir = join(versions, createHash('sha256').update(bundle).digest('hex').slice(0, 16));
  if (!privateFolder(dir)) return undefined;
  const made: { key: string; script: vm.Script }[] = [];
  let used = 0;
  let compiledWithout = 0;
  const loader = Module as unknown as { prototype: { _compile: Compile } } & ModuleStatics;
  const original = loader.prototype._compile;
  loader.prototype._compile = function compileCached(this: LoadingModule, content: string, filename: string) {
    // Node's own loader for: a hashbang line (legal only first in a file, not inside the
    // wrapper), and a dynamic import() (a vm.Script would resolve it from the working folder).
    if (!filename.startsWith(bundle) || content.startsWith('#!') || content.includes('import('))
      return original.call(this, content, filename);
    const key = sourceKey(content);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(join(dir, key));
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    if (!cachedData || script.cachedDataRejected) {
      made.push({ key, script });
      compiledWithout++;
    } else used++;
    const wrapper = script.runInThisContext({ displayErrors: true }) as CommonJsWrapper;
    return wrapper.call(this.exports, this.exports, requireFor(this, loader), this, filename, dirname(filename));
  };
  inUse = bundleDir;
  const keep = (): void => {
    if (made.length > 0) {
      for (const { key, script } of made.splice(0)) writeEntry(dir, key, script.createCachedData());
      writeEntry(dir, BUNDLE_FILE, Buffer.from(bundle));
      prune(versions, dir, bundle);
    }
    if (env.SKILLSMITH_TIMINGS === '1')
      process.stderr.write(
        `timings: code cache${isMainThread ? '' : ` (thread ${threadId})`}: ` +
          `${plural(used, 'chunk')} compiled from it, ${compiledWithout} without\n`,
      );
  };
  // A worker thread's 'exit' does not come when it is terminated: the worker's own code calls keep().
  if (isMainThread) process.once('exit', keep);
  return { keep };
}

/** A thread's code cache, once in use. */
export interface CodeCache {
  /**
   * Writes an entry for each chunk compiled without one, holding every function of it
   * compiled so far. The main thread does this at exit; a worker thread, which is usually
   * terminated rather than let exit, once its first piece of work has run.
   */
  keep(): void;
}

/** The bundle folder this thread's chunks are cached for: a worker thread started from here uses it too. */
let inUse: string | undefined;
export const codeCacheBundle = (): string | undefined => inUse;

type Compile = (this: LoadingModule, content: string, filename: string) => unknown;
type CommonJsWrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: LoadingModule,
  filename: string,
  dirname: string,
) => unknown;
interface LoadingModule {
  exports: unknown;
  require(id: string): unknown;
}
interface ModuleStatics {
  _resolveFilename(request: string, parent: LoadingModule, isMain: boolean, options?: unknown): string;
  _cache: NodeJS.Require['cache'];
  _extensions: NodeJS.Require['extensions'];
}

const sourceKey = (content: string): string => createHash('sha256').update(content).digest('hex').slice(0, 40);

/** The `require` Node hands a CommonJS module, for the parts the bundle (and its dependencies) use. */
function requireFor(mod: LoadingModule, loader: ModuleStatics): NodeJS.Require {
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  require.resolve = ((request: string, options?: unknown) =>
    loader._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  require.main = process.mainModule;
  require.cache = loader._cache;
  require.extensions = loader._extensions;
  return require;
}

/** Creates `dir` (owner only) and says whether it is a real folder no other user can write into. */
function privateFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Whole or not at all: a temp file of this process, then a rename. A failure only loses the
 * entry. Not fs/atomic's writeFileAtomic: its fsync per file (~20 ms each here) would be paid
 * at exit for every chunk, and an entry a crash leaves torn fails V8's checksum anyway.
 */
function writeEntry(dir: string, key: string, data: Buffer): void {
  // Threads of one process may write the same entry at once: each its own temp file.
  const temp = join(dir, `${key}.${process.pid}-${threadId}.tmp`);
  try {
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, join(dir, key));
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Names the bundle a folder of entries is for, so a folder whose bundle is gone can go too. */
const BUNDLE_FILE = 'bundle';
/** A temp file this old was left by a process that died mid-write. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Keeps the cache to the bundles that exist, as they are now: in this bundle's folder, the
 * entries made from sources no longer in it (an earlier build) go; beside it, the folders of
 * bundles that are gone (a deleted checkout). Run only after new entries were written — after a
 * build, or on first use — not on every command. Only files of the names written here go.
 */
function prune(versions: string, dir: string, bundle: string): void {
  try {
    const live = new Set([BUNDLE_FILE]);
    for (const folder of [bundle, join(bundle, 'chunks')])
      for (const name of readdirSync(folder))
        if (name.endsWith('.js')) live.add(sourceKey(readFileSync(join(folder, name), 'utf8')));
    removeEntries(dir, (name) => !live.has(name));
    for (const name of readdirSync(versions)) {
      const other = join(versions, name);
      if (other !== dir && /^[0-9a-f]{16}$/.test(name) && !existsSync(bundleOf(other))) {
        removeEntries(other, () => true);
        rmdirSync(other);
      }
    }
  } catch {
    // Housekeeping only: the next run that writes an entry tries again.
  }
}

/** The bundle folder a folder of entries was made for (the folder itself when it does not say, so it is kept). */
function bundleOf(folder: string): string {
  try {
    return readFileSync(join(folder, BUNDLE_FILE), 'utf8') || folder;
  } catch {
    return folder;
  }
}

/** An entry, the bundle file, or either's temp file. */
const OWN_NAME = /^([0-9a-f]{40}|bundle)(\.\d+(-\d+)?\.tmp)?$/;

/** Removes the files of `dir` written here that `unwanted` names, but not a temp file still being written. */
function removeEntries(dir: string, unwanted: (name: string) => boolean): void {
  for (const name of readdirSync(dir)) {
    if (!OWN_NAME.test(name) || !unwanted(name)) continue;
    const path = join(dir, name);
    if (name.endsWith('.tmp') && Date.now() - lstatSync(path).mtimeMs < STALE_TEMP_MS) continue;
    rmSync(path, { force: true });
  }
}
