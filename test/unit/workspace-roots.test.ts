/**
 * A workspace folder a client named (a window's, an MCP server's, a command's working folder) stays read and watched
 * for a while after its last client went: the next command in that folder, or a reloaded window, finds it read and
 * current instead of walking it again. Once no client named it for that long, it is no longer watched or read.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { test } from 'node:test';
import type { SessionLibrary } from '../../src/core/library.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';
import { MemoryLogger } from '../../src/core/log.js';
import { LINGER_WATCHES, WorkspaceRoots } from '../../src/engine/workspace-roots.js';
import type { RootWatch } from '../../src/core/ingest/live.js';
import { eventually } from '../eventually.js';
import { tempDir } from '../helpers.js';

/** The part of a library the engine's workspace roots use, recording what was asked of it. */
function recording(how: RootWatch = { polled: false, watches: 40 }) {
  const calls: string[] = [];
  const watched = new Set<string>();
  const library = {
    readsRoot: () => false,
    addRoots: async (roots: readonly SourceRoot[]) => {
      calls.push(`read ${roots.map((r) => r.source).join('+')}`);
      return roots.map((r) => ({ ...r }));
    },
    watchRoot: async (root: SourceRoot) => {
      calls.push(`watch ${root.source}`);
      watched.add(root.source);
      return how;
    },
    unwatchRoot: async (root: SourceRoot) => {
      calls.push(`unwatch ${root.source}`);
      watched.delete(root.source);
    },
    dropRoot: (root: SourceRoot) => calls.push(`drop ${root.source}`),
    catchUp: async (roots: readonly SourceRoot[]) => {
      calls.push(`compare ${roots.map((r) => r.source).join('+')}`);
    },
  };
  return { library: library as unknown as SessionLibrary, calls, watched };
}

test('a folder a command named lingers watched after it; named again it is not read again; then it is let go', async () => {
  const folder = tempDir();
  const roots: SourceRoot[] = [
    { source: 'specstory', path: folder },
    { source: 'aider', path: folder },
  ];
  const { library, calls, watched } = recording();
  const logger = new MemoryLogger();
  const workspaces = new WorkspaceRoots(library, logger, 1000);
  const first = {};
  assert.equal(await workspaces.register(first, roots, false), 2);
  assert.deepEqual(calls, ['read specstory+aider'], 'a command reads the folder once for both sources, and does not wait for a watch');
  await workspaces.release(first);
  assert.deepEqual([...watched].sort(), ['aider', 'specstory'], 'once its command is gone, the folder is watched so that it stays current');
  assert.ok(!calls.some((c) => c.startsWith('drop')), 'and still read');

  // the next command in the folder: nothing to read again, nor to compare (its watch kept it current)
  const second = {};
  assert.equal(await workspaces.register(second, roots, false), 2);
  assert.equal(calls.filter((c) => c.startsWith('read')).length, 1);
  assert.ok(!calls.some((c) => c.startsWith('compare')), calls.join(', '));
  // a window that opens it while it is held keeps its watch, and its closing sets it lingering again
  const window = {};
  await workspaces.register(window, roots, true);
  await workspaces.release(second);
  await workspaces.release(window);
  assert.equal(calls.filter((c) => c.startsWith('read')).length, 1);
  assert.deepEqual([...watched].sort(), ['aider', 'specstory']);

  // no client named it for the lingering time: no longer watched, nor read
  await eventually(() => calls.filter((c) => c.startsWith('drop')).length === 2, 'let go', { timeoutMs: 10_000 });
  assert.deepEqual([...watched], []);
  assert.ok(
    logger.lines.some((l) => l.includes(`${realpathSync(folder)}: named by no client for 1 s, no longer read`)),
    logger.lines.join('\n'),
  );
  // named after that, it is read anew
  const third = {};
  await workspaces.register(third, roots, false);
  assert.equal(calls.filter((c) => c.startsWith('read')).length, 2);
  workspaces.close();
});

test('a folder held by a running command, unwatched, is compared again when another command names it', async () => {
  const folder = tempDir();
  const roots: SourceRoot[] = [
    { source: 'specstory', path: folder },
    { source: 'aider', path: folder },
  ];
  const { library, calls } = recording();
  const workspaces = new WorkspaceRoots(library, new MemoryLogger(), 60_000);
  const first = {};
  await workspaces.register(first, roots, false);
  // a second command while the first still runs (or before the engine has seen it go): a history written in between
  // is seen by no watcher, so the folder is compared with what was read, once for both sources
  await workspaces.register({}, roots, false);
  assert.deepEqual(calls, ['read specstory+aider', 'compare specstory+aider']);
  // a window that names it now watches it from here on (the watch, once started, compares it: core/ingest/live.ts);
  // the next command finds it watched
  await workspaces.register({}, roots, true);
  await workspaces.register({}, roots, false);
  assert.deepEqual(calls.slice(2), ['watch specstory', 'watch aider']);
  workspaces.close();
});

test('an engine that stops lets no lingering timer or late release touch its closed library', async () => {
  const folder = tempDir();
  const { library, calls } = recording();
  const workspaces = new WorkspaceRoots(library, new MemoryLogger(), 50);
  const client = {};
  await workspaces.register(client, [{ source: 'specstory', path: folder }], false);
  workspaces.close();
  await workspaces.release(client);
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(calls, ['read specstory']);
});

test('a folder too large to watch cheaply, or one that can only be rescanned, is not kept for the next client', async () => {
  for (const how of [{ polled: true }, { polled: false, watches: LINGER_WATCHES + 1 }]) {
    const folder = tempDir();
    const { library, calls, watched } = recording(how);
    const logger = new MemoryLogger();
    const workspaces = new WorkspaceRoots(library, logger, 60_000);
    const command = {};
    await workspaces.register(command, [{ source: 'specstory', path: folder }], false);
    await workspaces.release(command);
    assert.deepEqual(calls, ['read specstory', 'watch specstory', 'unwatch specstory', 'drop specstory'], JSON.stringify(how));
    assert.deepEqual([...watched], []);
    assert.ok(
      logger.lines.some((l) => l.includes(`${realpathSync(folder)}: not kept for the next client`)),
      logger.lines.join('\n'),
    );
    // the next command reads it again
    await workspaces.register({}, [{ source: 'specstory', path: folder }], false);
    assert.equal(calls.filter((c) => c.startsWith('read')).length, 2);
    workspaces.close();
  }
});

test('the walk of a folder whose clients all went is stopped; one still named by another client goes on', async () => {
  const signals: AbortSignal[] = [];
  let finish!: () => void;
  const walked = new Promise<void>((resolve) => (finish = resolve));
  const { library } = recording();
  (library as unknown as { addRoots: unknown }).addRoots = async (roots: readonly SourceRoot[], signal: AbortSignal) => {
    signals.push(signal);
    await walked; // (a huge folder's walk, still going)
    return roots.map((r) => (signal.aborted ? undefined : { ...r }));
  };
  const roots = new WorkspaceRoots(library, new MemoryLogger(), 60_000);
  const folder = realpathSync(tempDir());
  const [a, b] = [{}, {}];
  const first = roots.register(a, [{ source: 'aider', path: folder }], false);
  const second = roots.register(b, [{ source: 'aider', path: folder }], false);
  await eventually(() => signals.length === 1, 'the walk started, once');
  void roots.release(a);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(signals[0].aborted, false, 'another client still names it');
  void roots.release(b);
  await eventually(() => signals[0].aborted, 'the walk is stopped once no client names the folder');
  finish();
  assert.deepEqual(await Promise.all([first, second]), [0, 0]);
  roots.close();
});
