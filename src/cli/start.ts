/**
 * `session-search` (dist/cli.cjs): runs the command line's bundle beside it (dist/cli-main.cjs, cli/quick.ts) from
 * V8's code cache, kept in the data folder's engine folder as the engine keeps its own (engine/code-cache.ts): a
 * command then neither compiles the bundle nor the functions it runs (about 5 ms of a 170 ms search at 10,000
 * sessions). The cache is written as the first command of a build exits. Where the engine's folder does not exist yet,
 * or is not this user's alone, the bundle runs as it is: a command creates no folder to keep a cache in.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { codeCacheFile, runWithCodeCache } from '../engine/code-cache.js';
import { enginePaths, isPrivateFolder } from '../engine/paths.js';
import { dataDirOfArgv } from './args.js';
import { BUILD } from '../version.js';
import { importThroughEntry } from './full-cli.js';

/** The engine's folder of the data folder the command names, where it exists and is this user's alone. */
function cacheFolder(argv: string[]): string | undefined {
  try {
    const dir = enginePaths(dataDirOfArgv(argv, process.env)).dir;
    return isPrivateFolder(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

const bundle = join(__dirname, 'cli-main.cjs');
const folder = cacheFolder(process.argv.slice(2));
if (folder) {
  // (the bundle's one import(), of the full command line, is made here: quick.ts)
  importThroughEntry((url) => import(url));
  const cache = runWithCodeCache(bundle, codeCacheFile(folder, `${BUILD}-cli`), BUILD, { register: false, imports: false });
  // (at exit: the functions the command ran are compiled by then, and go into the cache with the bundle's top level)
  if (!cache.used) process.once('exit', () => void cache.save());
} else createRequire(__filename)(bundle);
