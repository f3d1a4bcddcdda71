/**
 * `session-search` (dist/cli.cjs): runs the command line's bundle beside it (dist/cli-main.cjs, cli/quick.ts) from
 * V8's code cache, kept in the data folder's engine folder as the engine keeps its own (engine/code-cache.ts): a
 * command then neither compiles the bundle nor the functions it runs (about 5 ms of a 170 ms search at 10,000
 * sessions). The cache is written as the first command of a build exits. Where the engine's folder does not exist yet,
 * or is not this user's alone, the bundle runs as it is: a command creates no folder to keep a cache in.
 */
import { lstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { codeCacheFile, runWithCodeCache } from '../engine/code-cache.js';
import { enginePaths } from '../engine/paths.js';
import { dataDirFrom } from './args.js';
import { ENGINE_VERSION } from '../version.js';
import { FULL_CLI } from './full-cli.js';

/** The engine's folder of the data folder the command names (`--data DIR`, `--data=DIR`, or the default), when it is private. */
function cacheFolder(argv: string[]): string | undefined {
  const at = argv.findIndex((a) => a === '--data' || a.startsWith('--data='));
  const flag = at < 0 ? undefined : argv[at] === '--data' ? argv[at + 1] : argv[at].slice('--data='.length);
  try {
    const dir = enginePaths(dataDirFrom(flag, process.env)).dir;
    const info = lstatSync(dir, { throwIfNoEntry: false });
    if (!info?.isDirectory()) return undefined;
    if (process.platform !== 'win32' && ((info.mode & 0o077) !== 0 || (process.getuid && info.uid !== process.getuid()))) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

const bundle = join(__dirname, 'cli-main.cjs');
const folder = cacheFolder(process.argv.slice(2));
if (folder) {
  const build = ENGINE_VERSION.replace(/^.*\+/, '');
  // (the bundle's one import(), of the full command line, is made here: quick.ts)
  (globalThis as { [FULL_CLI]?: (url: string) => Promise<unknown> })[FULL_CLI] = (url) => import(url);
  const cache = runWithCodeCache(bundle, codeCacheFile(folder, `${build}-cli`), build, { register: false, imports: false });
  // (at exit: the functions the command ran are compiled by then, and go into the cache with the bundle's top level)
  if (!cache.used) process.once('exit', () => void cache.save());
} else createRequire(__filename)(bundle);
