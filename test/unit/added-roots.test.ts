/**
 * Roots added to a running library (a window's workspace folder registered with the engine) and dropped again (the
 * window closed): read when added, their sessions kept after, and the other roots never missed by a walk that was
 * under way while one was dropped (a root missed there would have its sessions taken for deleted).
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { openCore } from '../../src/core/library/open.js';
import { LiveUpdates } from '../../src/core/ingest/live.js';
import { foldersFactory, type Watcher, type WatchFactory } from '../../src/core/ingest/watchers.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';
import { MemoryLogger } from '../../src/core/log.js';
import { CORPUS, tempDir, writeCodeArchitect } from '../helpers.js';
import { corpusCopy } from '../damage.js';

test('a workspace root added while the library runs is read, and dropping it mid-walk misses no other root', async () => {
  const machine = tempDir();
  writeCodeArchitect(machine, '2025-11-20', 'retry-loop', [{ role: 'user', content: 'make the retry loop back off' }]);
  writeCodeArchitect(machine, '2025-11-21', 'cache-keys', [{ role: 'user', content: 'name the cache keys' }]);
  const workspace = tempDir();
  mkdirSync(join(workspace, '.specstory', 'history'), { recursive: true });
  const name = '2026-01-29_14-35-22Z-already-done-the-test.md';
  copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', name), join(workspace, '.specstory', 'history', name));

  const library = openCore({ roots: [{ source: 'codearchitect', path: machine }], logger: new MemoryLogger(), env: {} });
  // registered once the load has started (an engine's first client joins while the snapshot is restored): it comes
  // first, whichever of the two folders is resolved first
  const loading = library.load();
  const added = library.addRoot({ source: 'specstory', path: workspace });
  await loading;
  const root = await added;
  assert.ok(root, 'the workspace root exists');
  assert.equal(library.roots[0], root, 'the workspace root is walked before the machine’s');
  const sources = () => [...library.sessions.values()].map((s) => s.source).sort();
  assert.deepEqual(sources(), ['codearchitect', 'codearchitect', 'specstory']);

  // the window closes while a walk of every root is under way
  const walking = library.changedFiles();
  library.dropRoot(root);
  assert.deepEqual(await walking, [], 'no file of the roots that stay was missed and taken for changed or deleted');
  assert.deepEqual(sources(), ['codearchitect', 'codearchitect', 'specstory'], 'its session stays');
  assert.equal(library.roots.length, 1);
  await library.close();
});

test("a folder's SpecStory and Aider histories added together are read as when added one by one", async () => {
  const workspace = tempDir();
  mkdirSync(join(workspace, '.specstory', 'history'), { recursive: true });
  const name = '2026-01-29_14-35-22Z-already-done-the-test.md';
  copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', name), join(workspace, '.specstory', 'history', name));
  mkdirSync(join(workspace, 'sub'));
  copyFileSync(join(CORPUS, 'aider', 'zen-mcp-server', '.aider.chat.history.md'), join(workspace, 'sub', '.aider.chat.history.md'));
  const roots = [
    { source: 'specstory' as const, path: workspace },
    { source: 'aider' as const, path: workspace },
    { source: 'specstory' as const, path: join(workspace, 'no such folder') },
  ];
  const together = openCore({ roots: [], logger: new MemoryLogger(), env: {} });
  await together.load();
  const added = await together.addRoots(roots);
  assert.deepEqual(
    added.map((r) => r && [r.source, r.path]),
    [['specstory', workspace], ['aider', workspace], undefined],
  );
  const alone = openCore({ roots: [], logger: new MemoryLogger(), env: {} });
  await alone.load();
  for (const root of roots) await alone.addRoot(root);
  const sessions = (library: typeof alone) => [...library.sessions.values()].map((s) => [s.id, s.source, s.file, library.turns.all(s).length]).sort();
  assert.deepEqual(sessions(together), sessions(alone));
  assert.deepEqual(new Set(sessions(together).map((s) => s[1])), new Set(['specstory', 'aider']), 'both sources read');
  // added again: the roots already read, nothing read twice
  assert.deepEqual(await together.addRoots(roots.slice(0, 2)), added.slice(0, 2));
  await Promise.all([together.close(), alone.close()]);
});

test('what is written in a workspace folder between its read and its watcher’s start is read, for each of its roots, in one walk', async () => {
  const workspace = tempDir();
  const history = join(workspace, '.specstory', 'history');
  mkdirSync(history, { recursive: true });
  const names = ['2026-01-29_14-35-22Z-already-done-the-test.md', '2026-01-29_16-26-43Z-the-test-inversions-have.md'];
  copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', names[0]), join(history, names[0]));
  const logger = new MemoryLogger();
  const library = openCore({ roots: [], logger, env: {} });
  await library.load();
  // read by a command; watched once it has gone (engine/workspace-roots.ts), one root after the other
  const [specstory, aider] = (await library.addRoots([
    { source: 'specstory', path: workspace },
    { source: 'aider', path: workspace },
  ])) as SourceRoot[];
  const walks: string[][] = [];
  const changedFiles = library.changedFiles.bind(library);
  library.changedFiles = (roots) => (walks.push((roots ?? library.roots).map((r) => r.source)), changedFiles(roots));
  // a watcher that starts only when told (a large folder takes a while to be watched)
  let go!: () => void;
  const told = new Promise<void>((resolve) => (go = resolve));
  const late: WatchFactory = (root, accepts, known) => {
    const late = new EventEmitter() as EventEmitter & Watcher;
    let real: Watcher | undefined;
    late.close = async () => real?.close();
    void told.then(() => {
      real = foldersFactory(root, accepts, known);
      for (const event of ['add', 'change', 'unlink', 'error', 'ready'] as const) real.on(event as 'add', (arg: string) => late.emit(event, arg));
    });
    return late;
  };
  // (quiet time longer than the test: the changes are read because an answer asks, not because time passed)
  const live = new LiveUpdates(library, { logger, debounceMs: 60_000, watchFactory: late });
  try {
    const watching = live.watch(specstory);
    copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', names[1]), join(history, names[1]));
    copyFileSync(join(CORPUS, 'aider', 'zen-mcp-server', '.aider.chat.history.md'), join(workspace, '.aider.chat.history.md'));
    go();
    await watching;
    await live.watch(aider);
    assert.deepEqual(walks, [], 'nothing walked yet');
    await live.settled();
    const files = new Set([...library.sessions.values()].map((s) => s.file));
    assert.ok(files.has(join(history, names[1])), 'the history written before the watcher started is read');
    assert.ok(files.has(join(workspace, '.aider.chat.history.md')), 'and the Aider history beside it');
    assert.deepEqual(walks, [['specstory', 'aider']], 'the folder was walked once for both');
  } finally {
    await live.close();
    await library.close();
  }
});

test('the files changed since the load, as a watcher asks once it is ready: the same walked on a thread of its own as here', async () => {
  const root = corpusCopy();
  const answers: string[][] = [];
  for (const scanAside of [false, true]) {
    const logger = new MemoryLogger();
    const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, env: {}, scanAside });
    await library.load();
    assert.deepEqual(await library.changedFiles(), [], 'nothing changed yet');
    const files = [...library.sessions.values()].map((s) => s.file).sort();
    // one appended to, one gone, one new
    appendFileSync(files[0], `${readFileSync(files[0], 'utf8').trimEnd().split('\n').pop()}\n`);
    const gone = `${files[1]}.moved`;
    renameSync(files[1], gone);
    const added = join(root, 'added-project', 'f3c1a9e0-0000-4000-8000-000000000001.jsonl');
    mkdirSync(dirname(added), { recursive: true });
    copyFileSync(files[2], added);
    answers.push((await library.changedFiles()).sort());
    assert.equal(
      logger.lines.some((l) => l.includes('walked on the main thread')),
      false,
      logger.lines.join('\n'),
    );
    await library.close();
    // (as it was, for the next library)
    renameSync(gone, files[1]);
    rmSync(dirname(added), { recursive: true });
    writeFileSync(files[0], readFileSync(files[0], 'utf8').split('\n').slice(0, -2).join('\n') + '\n');
  }
  assert.equal(answers[0].length, 3, answers[0].join('\n'));
  assert.deepEqual(answers[1], answers[0]);
});
