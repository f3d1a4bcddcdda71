/**
 * The engine's code cache (engine/code-cache.ts): a second start takes its compiled code from the file the first wrote,
 * and a cache that is damaged, made from other bytes of the bundle or missing is not used, the start going on without
 * it and writing it again. Both as a bundle is run by it (a small one, in a fresh Node each time, as an engine starts),
 * as a client starts the engine (dist/engine.cjs), and as `session-search` runs its own bundle (dist/cli.cjs).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { eventually } from '../eventually.js';
import { ROOT, tempDir } from '../helpers.js';
import { setup, stopEngine } from './engine-setup.js';

const started: string[] = [];
after(async () => {
  for (const data of started) await stopEngine(data);
});

interface Run {
  used: boolean;
  why?: string;
  ran: { dirname: string; filename: string; answer: number; required: boolean };
  saved?: { bytes: number } | { error: string };
}

/** Runs `bundle` through runWithCodeCache in a new Node process (as engine/start.ts does), saving the cache after. */
function runBundle(bundle: string, cacheFile: string, build: string): Run {
  const script = `
    import { runWithCodeCache } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'engine', 'code-cache.ts')).href)};
    const cache = runWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheFile)}, ${JSON.stringify(build)});
    console.log(JSON.stringify({ used: cache.used, why: cache.why, ran: globalThis.ran, saved: cache.used ? undefined : cache.save() }));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Run;
}

const BUNDLE = (n: number): string => `"use strict";
const path = require("node:path");
function answer() { return ${n} * 7; }
globalThis.ran = { dirname: __dirname, filename: __filename, answer: answer(), required: typeof path.join === "function" };
`;

test('a bundle runs as a main module with its code cache: written by the first start, used by the next, not used when damaged or made from other bytes', () => {
  const dir = tempDir();
  const bundle = join(dir, 'serve.cjs');
  writeFileSync(bundle, BUNDLE(6));
  const cacheFile = join(dir, 'code-b1-test.bin');
  const ran = { dirname: dir, filename: bundle, answer: 42, required: true };

  const first = runBundle(bundle, cacheFile, 'b1');
  assert.deepEqual({ used: first.used, why: first.why, ran: first.ran }, { used: false, why: 'none written yet', ran });
  assert.ok(first.saved && 'bytes' in first.saved && first.saved.bytes > 8, JSON.stringify(first.saved));
  assert.equal(statSync(cacheFile).mode & 0o777, 0o600, 'only its user reads it');

  const second = runBundle(bundle, cacheFile, 'b1');
  assert.deepEqual({ used: second.used, why: second.why, ran: second.ran }, { used: true, why: undefined, ran });

  // a byte of V8's data changed: never handed to V8; the bundle runs compiled from its source, and the cache is written again
  const bytes = readFileSync(cacheFile);
  bytes[bytes.length - 3] ^= 0xff;
  writeFileSync(cacheFile, bytes);
  const damaged = runBundle(bundle, cacheFile, 'b1');
  assert.deepEqual({ used: damaged.used, why: damaged.why, ran: damaged.ran }, { used: false, why: 'the file is damaged', ran });
  assert.equal(runBundle(bundle, cacheFile, 'b1').used, true, 'written again');

  // the bundle changed in place, to the same length (which V8 alone would not notice): its new code runs
  writeFileSync(bundle, BUNDLE(7));
  const changed = runBundle(bundle, cacheFile, 'b1');
  assert.deepEqual({ used: changed.used, why: changed.why, ran: changed.ran }, { used: false, why: 'made from another bundle', ran: { ...ran, answer: 49 } });

  // cut short
  writeFileSync(cacheFile, readFileSync(cacheFile).subarray(0, 6));
  assert.equal(runBundle(bundle, cacheFile, 'b1').why, 'the file is damaged');

  // another build's cache in the same folder is removed when this build's is written; another V8's of this build is kept
  writeFileSync(join(dir, 'code-b0-test.bin'), 'old');
  writeFileSync(join(dir, 'code-b1-other-v8.bin'), 'kept');
  runBundle(bundle, join(dir, 'code-b1-test2.bin'), 'b1');
  assert.deepEqual(readdirSync(dir).sort(), ['code-b1-other-v8.bin', 'code-b1-test.bin', 'code-b1-test2.bin', 'serve.cjs']);
});

test('an engine a client starts writes its code cache after its first load, and the next engine starts from it; a damaged one is not used', async () => {
  const { data, cli } = setup();
  started.push(data);
  const log = (): string => readFileSync(join(data, 'engine', 'engine.log'), 'utf8');
  const search = (): unknown => {
    const r = cli(['search', 'MockRepoMap', '--json']);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { results: unknown[] }).results;
  };
  const first = search();
  assert.ok(Array.isArray(first) && first.length > 0);
  assert.match(log(), /no code cache used \(none written yet\): one is written after the first load/);
  await eventually(() => /code cache written \([\d.]+ MB\) for the next start/.test(log()), 'the cache written', { timeoutMs: 30_000, intervalMs: 200 });
  // (the command's own cache beside it: the test below)
  const caches = readdirSync(join(data, 'engine')).filter((n) => n.startsWith('code-') && !n.includes('-cli-'));
  assert.equal(caches.length, 1, caches.join());
  const cacheFile = join(data, 'engine', caches[0]);

  await stopEngine(data);
  assert.deepEqual(search(), first, 'the same answer');
  assert.match(log(), new RegExp(`compiled code read from ${cacheFile.replace(/[.+]/g, '\\$&')}`));

  await stopEngine(data);
  const bytes = readFileSync(cacheFile);
  bytes[100] ^= 0xff;
  writeFileSync(cacheFile, bytes);
  assert.deepEqual(search(), first, 'the same answer without it');
  assert.match(log(), /no code cache used \(the file is damaged\)/);
  // stopped at once after its answer: it writes the cache as it stops, if it had not yet
  await stopEngine(data);
  assert.equal((log().match(/code cache written/g) ?? []).length, 2, 'written again');
  assert.deepEqual(search(), first);
  assert.equal((log().match(/compiled code read from/g) ?? []).length, 2);
  assert.ok(existsSync(cacheFile));
});

test("a command runs from its own code cache once the engine's folder exists, writes it again when damaged, and creates no folder for it", async () => {
  const { data, cli } = setup();
  started.push(data);
  // a data folder no engine has used: the command creates nothing to keep a cache in
  const version = cli(['--version']);
  assert.equal(version.code, 0, version.stderr);
  assert.equal(existsSync(join(data, 'engine')), false, "no engine's folder made by --version");
  const search = (): unknown => {
    const r = cli(['search', 'MockRepoMap', '--json']);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { results: unknown[] }).results;
  };
  const first = search(); // (starts the engine, which makes its folder; this command had no cache)
  assert.ok(Array.isArray(first) && first.length > 0);
  const cliCaches = (): string[] => readdirSync(join(data, 'engine')).filter((n) => n.startsWith('code-') && n.includes('-cli-'));
  assert.deepEqual(cliCaches(), [], 'none before the folder existed');
  assert.deepEqual(search(), first);
  assert.equal(cliCaches().length, 1, 'written as the first command with the folder exited');
  const cacheFile = join(data, 'engine', cliCaches()[0]);
  const written = statSync(cacheFile).mtimeMs;
  // taken, not written again
  assert.deepEqual(search(), first, 'the same answer from the cache');
  assert.equal(statSync(cacheFile).mtimeMs, written);
  // damaged: the command answers without it, and writes it again
  const bytes = readFileSync(cacheFile);
  bytes[100] ^= 0xff;
  writeFileSync(cacheFile, bytes);
  assert.deepEqual(search(), first, 'the same answer without it');
  assert.notDeepEqual(readFileSync(cacheFile), bytes, 'written again');
  assert.deepEqual(search(), first);
});
