/**
 * What a client starts as the engine (dist/engine.cjs, `engine.cjs serve --data DIR …`): runs the engine's bundle
 * beside it (dist/serve.cjs) from the code cache in the data folder's engine folder (engine/code-cache.ts). Kept to
 * what it needs before the bundle runs: the data folder from the arguments, and where its private folder is.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { codeCacheFile, runWithCodeCache } from './code-cache.js';
import { enginePaths, privateFolder } from './paths.js';
import { dataDirFrom } from '../cli/args.js';
import { ENGINE_VERSION } from '../version.js';

// (clients pass `--data DIR`; `--data=DIR` and none, as the engine itself reads them. Not parseCli: it states every
// root given, which the engine does once itself)
const argv = process.argv.slice(2);
const at = argv.findIndex((a) => a === '--data' || a.startsWith('--data='));
const flag = at < 0 ? undefined : argv[at] === '--data' ? argv[at + 1] : argv[at].slice('--data='.length);
const dir = enginePaths(dataDirFrom(flag, process.env)).dir;
const build = ENGINE_VERSION.replace(/^.*\+/, '');
const bundle = join(__dirname, 'serve.cjs');
let folder = true;
try {
  privateFolder(dir);
} catch {
  folder = false; // (no private folder to keep a cache in: the engine says why in its own words)
}
if (folder) runWithCodeCache(bundle, codeCacheFile(dir, build), build);
else createRequire(__filename)(bundle);
