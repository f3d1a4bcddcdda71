// One build for every bundle. Each entry point is its own file so that no bundle inlines another's start-up code.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

// The build's identity (a hash of its sources): an engine of another build hands over to a client of this one.
const sources = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)]));
const buildId = createHash('sha256');
for (const file of sources('src').sort()) buildId.update(file).update(readFileSync(file));

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  minify: !watch && !process.env.NO_MINIFY,
  legalComments: 'none',
  logLevel: 'warning',
  // parse-pool.ts reads import.meta.url only where __dirname is missing (ESM): empty in CommonJS bundles, never read there
  logOverride: { 'empty-import-meta': 'silent' },
  // the PostgreSQL driver's optional native binding and edge-runtime socket: never used here (pure JavaScript protocol)
  external: ['pg-native', 'pg-cloudflare'],
  define: { SESSION_SEARCH_BUILD: JSON.stringify(buildId.digest('hex').slice(0, 12)), SESSION_SEARCH_BUILT: String(Date.now()) },
};

// ESM bundles still contain CommonJS dependencies that call require(): give them one.
// They also read __dirname and __filename (sql.js finds its folder so): the bundle's own, as CommonJS would have them.
const requireShim =
  "import { createRequire as __createRequire } from 'node:module'; import { fileURLToPath as __toPath } from 'node:url'; import { dirname as __dirOf } from 'node:path'; " +
  'const require = __createRequire(import.meta.url); const __filename = __toPath(import.meta.url); const __dirname = __dirOf(__filename);';

// The command line and the stdio MCP server: one ESM build split into chunks, so that a command answered by the
// engine loads only the client and the renderer, and the library (with zod, the MCP SDK, SQLite, PostgreSQL) loads when
// a command needs it in process. Chunks sit beside the entries in dist/, where the workers and the WebAssembly are found.
// (the chunks of an earlier build are removed: their names change with their content)
if (existsSync('dist')) for (const f of readdirSync('dist')) if (/^chunk-.*\.js(\.map)?$/.test(f)) rmSync(join('dist', f));
const commands = build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts', mcp: 'src/mcp/stdio.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunk-[hash]',
  // every output file is its own module scope: each gets the require() its CommonJS dependencies call
  banner: { js: `#!/usr/bin/env node\n${requireShim}` },
});

// `session-search` itself: one CommonJS file that answers the engine's commands with only its client loaded, and loads
// the full command line above for the rest (src/cli/quick.ts).
// It runs from V8's code cache (src/cli/start.ts, dist/cli.cjs, the command users run), like the engine.
const quick = build({ ...common, format: 'cjs', entryPoints: ['src/cli/quick.ts'], outfile: 'dist/cli-main.cjs' });
const cliStart = build({ ...common, format: 'cjs', entryPoints: ['src/cli/start.ts'], outfile: 'dist/cli.cjs', banner: { js: '#!/usr/bin/env node' } });

// The extension host loads CommonJS and provides `vscode` itself.
const extension = build({
  ...common,
  format: 'cjs',
  entryPoints: ['src/extension/extension.ts'],
  outfile: 'dist/extension.cjs',
  external: ['vscode', ...common.external],
});
// The search panel's page: a browser bundle with the codicon font and styles beside it (its localResourceRoots).
const webview = build({
  ...common,
  platform: 'browser',
  target: 'es2022',
  format: 'esm',
  entryPoints: ['webview/panel.ts'],
  outfile: 'dist/webview/panel.js',
}).then(() => {
  mkdirSync('dist/webview', { recursive: true });
  copyFileSync('webview/panel.css', 'dist/webview/panel.css');
  copyFileSync('node_modules/@vscode/codicons/dist/codicon.css', 'dist/webview/codicon.css');
  copyFileSync('node_modules/@vscode/codicons/dist/codicon.ttf', 'dist/webview/codicon.ttf');
});
// The engine clients start (engine/start.ts): a few lines that run the engine's own bundle beside it from V8's code
// cache; and that bundle, `serve` alone, CommonJS so that V8 can cache its compiled code (engine/code-cache.ts).
const engine = build({ ...common, format: 'cjs', entryPoints: ['src/engine/start.ts'], outfile: 'dist/engine.cjs' });
const serve = build({ ...common, format: 'cjs', entryPoints: ['src/engine/main.ts'], outfile: 'dist/serve.cjs' });
// The index server is forked by vscode-languageclient; CommonJS like the extension.
const server = build({ ...common, format: 'cjs', entryPoints: ['src/server/main.ts'], outfile: 'dist/server.cjs' });
// The parsing thread a long load starts beside whichever bundle runs the library (found next to it in dist/).
const parseWorker = build({ ...common, format: 'cjs', entryPoints: ['src/core/ingest/parse-worker.ts'], outfile: 'dist/parse-worker.cjs' });
// The thread that walks the roots while a large snapshot is restored, found the same way.
const scanWorker = build({ ...common, format: 'cjs', entryPoints: ['src/core/ingest/scan-worker.ts'], outfile: 'dist/scan-worker.cjs' });
// The thread that learns the semantic model in the background, found the same way.
const trainWorker = build({ ...common, format: 'cjs', entryPoints: ['src/core/semantic/train-worker.ts'], outfile: 'dist/train-worker.cjs' });
// The thread that runs a user's own model folder (onnxruntime-web), with the runtime's WebAssembly copied beside it.
// (ESM: the runtime's Node build finds its WebAssembly module through import.meta.url)
const embedWorker = build({
  ...common,
  entryPoints: ['src/core/embed/embed-worker.ts'],
  outfile: 'dist/embed-worker.mjs',
  banner: { js: requireShim },
});

// SQLite's WebAssembly (sources kept in a database), read beside whichever bundle runs; not inlined into each.
mkdirSync('dist', { recursive: true });
copyFileSync('node_modules/sql.js/dist/sql-wasm.wasm', 'dist/sql-wasm.wasm');
for (const f of ['ort-wasm-simd-threaded.wasm', 'ort-wasm-simd-threaded.mjs']) copyFileSync(`node_modules/onnxruntime-web/dist/${f}`, `dist/${f}`);

await Promise.all([extension, webview, server, engine, serve, parseWorker, scanWorker, trainWorker, embedWorker, commands, quick, cliStart]);
