/**
 * Runs a CommonJS bundle with V8's code cache, kept in a file (what Node 22's `module.enableCompileCache` does, which
 * Node 20 lacks): the engine's bundle is compiled once, and every later start takes its compiled code from the file
 * instead of compiling its 1.6 MB of JavaScript again, and again every function it runs while it restores the index.
 * At 10,000 sessions that is about 0.1 s of an engine's warm start.
 *
 * The cache is written a little after the engine's first load, or as it stops if that comes first (`keepCodeCache`),
 * so that it holds the functions a start runs, not only the bundle's top level. It is checked twice when read: CRC-32s
 * of our own (a torn or damaged file is not handed to V8, nor one made from other bytes of the bundle), then V8's own
 * (its version, its flags). A cache that fails either is not used, and the start goes on as without one; it is written
 * again. Nothing in it is more than the bundle beside it already says: it lives in the engine's private folder.
 */
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script, constants } from 'node:vm';
import { crc32 } from 'node:zlib';
import { isAscii } from 'node:buffer';
import type { Logger } from '../core/log.js';

/** What became of a start's code cache: told by the engine in its log. */
export interface CodeCache {
  /** The file read and written. */
  file: string;
  /** Whether the bundle's code came from the file. */
  used: boolean;
  /** Why it did not (none written yet, damaged, made from another bundle, refused by V8). */
  why?: string;
  /** Writes the cache of the code compiled so far, once: the bytes written, or why not (a second call: already written). */
  save(): { bytes: number } | { error: string };
}

const KEY = Symbol.for('session-search.code-cache');
/** Before V8's data: a CRC-32 of the bundle it was made from, and one of the data itself. */
const HEAD = 8;

/** How the engine runs its bundle: its cache is the process's own (`codeCacheOf`), and its `import()` resolves. */
const ENGINE = { register: true, imports: true };

/** How long after the first load the cache is written: the first answers' code is in it too. */
const SAVE_AFTER_MS = 2000;

/**
 * Says in the engine's log how its code was compiled and, where no cache was used, writes one a little after `loaded`
 * settles, or when the engine stops before that (an engine stopped at once still leaves one for the next start).
 * Returns what the engine calls as it stops. Nothing happens in a process not started through engine/start.ts
 * (`session-search serve` itself).
 */
export function keepCodeCache(logger: Logger, loaded: Promise<unknown>): () => void {
  const cache = codeCacheOf();
  if (!cache) return () => undefined;
  if (cache.used) {
    logger.info(`compiled code read from ${cache.file}`);
    return () => undefined;
  }
  logger.info(`no code cache used (${cache.why}): one is written after the first load`);
  let timer: NodeJS.Timeout | undefined;
  let written = false;
  const write = (): void => {
    clearTimeout(timer);
    if (written) return;
    written = true;
    const saved = cache.save();
    if ('bytes' in saved) logger.info(`code cache written (${(saved.bytes / 1048576).toFixed(1)} MB) for the next start: ${cache.file}`);
    else logger.warn(`the code cache was not written: ${saved.error}`);
  };
  void loaded.then(() => {
    if (!written) timer = setTimeout(write, SAVE_AFTER_MS).unref();
  });
  return write;
}

/** The code cache this process was started with, if it was (engine/start.ts). */
export function codeCacheOf(): CodeCache | undefined {
  return (globalThis as { [KEY]?: CodeCache })[KEY];
}

/** The cache of `bundle` for this build and this V8, in `dir`: another build's or another V8's is another file. */
export function codeCacheFile(dir: string, build: string): string {
  return join(dir, `code-${build}-${process.versions.v8}-${process.arch}.bin`.replace(/[^\w.-]/g, '_'));
}

/**
 * V8's data in a cache file made from `bundle` (its bytes' CRC-32), or why there is none to use. (V8 itself compares
 * only a source's length: a bundle changed in place, of the same length, would run its old code.)
 */
function readCache(file: string, bundle: number): Buffer | string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return 'none written yet';
  }
  if (bytes.length <= HEAD || crc32(bytes.subarray(HEAD)) !== bytes.readUInt32LE(4)) return 'the file is damaged';
  if (bytes.readUInt32LE(0) !== bundle) return 'made from another bundle';
  return bytes.subarray(HEAD);
}

/**
 * Runs `bundle` (a CommonJS file) as this process's main module, compiled from `cacheFile` where V8 takes it. Caches of
 * other builds in the same folder (`code-<other build>-…`) are removed when this one is written. `own.register`: the
 * process's own cache, which the engine writes as it loads (`keepCodeCache`; the command line's is not); `own.imports`:
 * the bundle's `import()` allowed (the command line's hands its one import to its entry: cli/start.ts).
 */
export function runWithCodeCache(bundle: string, cacheFile: string, build: string, own: { register: boolean; imports: boolean } = ENGINE): CodeCache {
  // (esbuild writes ASCII: read a byte to a character, sooner than decoding UTF-8; one that is not is read as UTF-8)
  const bytes = readFileSync(bundle);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const bundleCrc = crc32(bytes);
  const cached = readCache(cacheFile, bundleCrc);
  const script = new Script(Module.wrap(source), {
    filename: bundle,
    cachedData: typeof cached === 'string' ? undefined : cached,
    // the bundle's dynamic import() (none runs in the engine) resolves as the main module's would (Node ≥ 20.12; an
    // experimental option that prints a warning: the command line, whose output is read, imports through its entry)
    importModuleDynamically: own.imports ? constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER : undefined,
  });
  const used = typeof cached !== 'string' && !script.cachedDataRejected;
  let saved = false;
  const cache: CodeCache = {
    file: cacheFile,
    used,
    why: used ? undefined : typeof cached === 'string' ? cached : 'V8 did not take it (another V8, or other flags)',
    save() {
      if (saved) return { error: 'already written' };
      saved = true;
      try {
        const data = script.createCachedData();
        const out = Buffer.alloc(HEAD + data.length);
        data.copy(out, HEAD);
        out.writeUInt32LE(bundleCrc, 0);
        out.writeUInt32LE(crc32(data), 4);
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, out, { mode: 0o600 });
        renameSync(temporary, cacheFile);
        const prefix = `code-${build}-`;
        for (const name of readdirSync(dirname(cacheFile)))
          if (name.startsWith('code-') && !name.startsWith(prefix) && name !== basename(cacheFile)) rmSync(join(dirname(cacheFile), name), { force: true });
        return { bytes: out.length };
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    },
  };
  if (own.register) (globalThis as { [KEY]?: CodeCache })[KEY] = cache;
  // the bundle runs as Node runs a main module: its own module object, require, __filename and __dirname
  const main = new Module(bundle, undefined);
  main.filename = bundle;
  main.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(bundle));
  const require = Module.createRequire(bundle);
  (script.runInThisContext() as (...args: unknown[]) => void).call(main.exports, main.exports, require, main, bundle, dirname(bundle));
  return cache;
}
