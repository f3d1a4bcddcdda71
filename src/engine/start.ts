/**
 * What a client starts as the engine (dist/engine.cjs, `engine.cjs serve --data DIR …`): runs the engine's bundle
 * beside it (dist/serve.cjs) from the code cache in the data folder's engine folder (engine/code-cache.ts). Kept to
 * what it needs before the bundle runs: the data folder from the arguments, and where its private folder is.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { codeCacheFile, runWithCodeCache } from './code-cache.js';
import { enginePaths, privateFolder } from './paths.js';
import { dataDirOfArgv } from '../cli/args.js';
import { BUILD } from '../version.js';

// (clients pass `--data DIR`; `--data=DIR` and none, as the engine itself reads them)
const dir = enginePaths(dataDirOfArgv(process.argv.slice(2), process.env)).dir;
const bundle = join(__dirname, 'serve.cjs');
let folder = true;
try {
  privateFolder(dir);
} catch {
  folder = false; // (no private folder to keep a cache in: the engine says why in its own words)
}
if (folder) runWithCodeCache(bundle, codeCacheFile(dir, BUILD), BUILD);
else createRequire(__filename)(bundle);
