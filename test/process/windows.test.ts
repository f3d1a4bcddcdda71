/**
 * VS Code windows as the engine's clients: each window's extension host links to the one engine of the data folder
 * (engine/window-link.ts, as src/extension/client.ts opens it, starting the built dist/engine.cjs serve). A window's
 * SpecStory folder is read and watched by the engine while that window is open, and what it holds is found from every
 * window; a window configured to read other sources than the engine is told why the engine cannot serve it, and its
 * own index server (the built dist/server.cjs, spoken to over LSP as vscode-languageclient does) answers from a
 * library of its own, and says why.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { SOURCE_IDS } from '../../src/core/model.js';
import { openWindowLink } from '../../src/engine/window-link.js';
import type { RemoteEngine } from '../../src/engine/client.js';
import { running } from '../../src/core/store/running.js';
import type { IndexProgress, ServerSettings, TreeSession } from '../../src/protocol.js';
import { eventually } from '../eventually.js';
import { CORPUS, ROOT, snapshotSessions, tempDir, writeSessionCopies } from '../helpers.js';

const HOME_DIR = tempDir();
const DATA = tempDir();
const CODEARCHITECT = join(CORPUS, 'codearchitect', 'sessions');
const HISTORY = join(CORPUS, 'specstory', 'specstory-cli', 'history');

interface Window {
  request: (method: string, params?: unknown) => Promise<unknown>;
  close: () => Promise<void>;
  log: string[];
  progress: IndexProgress[];
}

const windows: Window[] = [];

function settings(workspaceFolders: string[], sources: Partial<Record<string, boolean>> = {}): ServerSettings {
  return {
    sources: SOURCE_IDS.map((id) => ({ id, enabled: sources[id] !== false, folders: id === 'codearchitect' ? [CODEARCHITECT] : [] })),
    workspaceFolders,
    dataDir: DATA,
    archive: true,
    workspaceSymbols: true,
    exclude: [],
    maxFileBytes: 512 * 1024 * 1024,
  };
}
const env = { ...process.env, HOME: HOME_DIR, SESSION_SEARCH_ENGINE_IDLE_MS: '60000' };

function windowLogger(log: string[]) {
  return { info: (m: string) => void log.push(m), warn: (m: string) => void log.push(m), error: (m: string) => void log.push(m) };
}

/** A window as the extension host opens it: linked to the engine of the data folder; or why no engine can serve it. */
async function openWindow(options: ServerSettings): Promise<Window | { reason: string; log: string[] }> {
  const log: string[] = [];
  const progress: IndexProgress[] = [];
  const opened = await openWindowLink(options, {
    entry: join(ROOT, 'dist', 'engine.cjs'),
    env,
    logger: windowLogger(log),
    notify: (method, params) => {
      if (method === 'sessions/indexProgress') progress.push(params as IndexProgress);
    },
  });
  if ('reason' in opened) return { reason: opened.reason, log };
  const engine: RemoteEngine = opened.engine;
  const window: Window = { request: (method, params) => engine.request(method, params), close: () => engine.close(), log, progress };
  windows.push(window);
  return window;
}

const linked = (w: Window | { reason: string }): Window => {
  if ('reason' in w) assert.fail(`the window was not linked to the engine: ${w.reason}`);
  return w;
};

/** The index server a window starts where no engine can serve it: initialize with the window's settings, then initialized. */
async function openOwnServer(options: ServerSettings, asked?: { atOnce: string }): Promise<Window> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', 'server.cjs'), '--stdio'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection: MessageConnection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const window: Window = {
    request: (method, params) => connection.sendRequest(method, params),
    close: async () => {
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      connection.dispose();
      await eventually(() => child.exitCode !== null || child.signalCode !== null, 'the index server exited').catch(() => child.kill());
    },
    log: [],
    progress: [],
  };
  connection.onNotification('window/logMessage', (p: { message: string }) => void window.log.push(p.message));
  connection.onNotification('sessions/indexProgress', (p: IndexProgress) => void window.progress.push(p));
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: options });
  await connection.sendNotification('initialized', {});
  // (a request sent right behind initialized: answered while the first load has only just begun)
  if (asked) void connection.sendRequest(asked.atOnce).catch((err: unknown) => window.log.push(`${asked.atOnce} failed: ${String(err)}`));
  windows.push(window);
  return window;
}

const ready = (w: Window): Promise<void> =>
  eventually(() => w.progress.some((p) => p.state === 'ready'), 'the window was told the index is ready', { timeoutMs: 60_000, debug: () => w.log.join('\n') });
const tree = (w: Window): Promise<TreeSession[]> => w.request('sessions/tree', {}) as Promise<TreeSession[]>;
const enginePid = (): number => Number(readFileSync(join(DATA, 'engine', 'pid'), 'utf8'));

after(async () => {
  for (const w of windows) await w.close();
  if (existsSync(join(DATA, 'engine', 'pid'))) {
    const pid = enginePid();
    if (running(pid)) process.kill(pid, 'SIGTERM');
    await eventually(() => !running(pid), 'the engine stopped', { timeoutMs: 60_000 });
  }
});

test('two windows share one engine; a window’s SpecStory folder is read and watched by it while the window is open', async () => {
  const workspace = tempDir();
  const history = join(workspace, '.specstory', 'history');
  mkdirSync(history, { recursive: true });
  copyFileSync(join(HISTORY, '2026-01-29_14-35-22Z-already-done-the-test.md'), join(history, '2026-01-29_14-35-22Z-already-done-the-test.md'));
  const first = linked(await openWindow(settings([workspace])));
  const second = linked(await openWindow(settings([])));
  await ready(first);
  await ready(second);

  const pid = enginePid();
  assert.ok(running(pid), 'an engine serves the data folder');
  for (const w of [first, second])
    assert.ok(
      w.log.some((m) => m.includes(`answering from the engine of ${DATA} (pid ${pid})`)),
      w.log.join('\n'),
    );

  // the first window's workspace history is in the engine, so in the second window's answers too
  await eventually(async () => (await tree(second)).some((s) => s.source === 'specstory'), 'the SpecStory session of the first window is in the tree', {
    timeoutMs: 30_000,
  });
  const sessions = await tree(second);
  assert.ok(
    sessions.some((s) => s.source === 'codearchitect'),
    'the machine’s sources are read for every window',
  );

  // a history written while the first window is open is read once, by the engine, and found from the second window
  copyFileSync(join(HISTORY, '2026-01-29_16-26-43Z-the-test-inversions-have.md'), join(history, '2026-01-29_16-26-43Z-the-test-inversions-have.md'));
  await eventually(async () => (await tree(second)).filter((s) => s.source === 'specstory').length === 2, 'the new SpecStory history is found', {
    timeoutMs: 30_000,
  });
  const found = (await second.request('sessions/search', { query: 'inversions', limit: 5 })) as { results: { source: string }[] };
  assert.ok(
    found.results.some((r) => r.source === 'specstory'),
    JSON.stringify(found),
  );
  const titles = (await first.request('sessions/titles', { query: 'test', limit: 50 })) as { topic: string }[];
  assert.ok(titles.length > 0, 'Go to Symbol in Workspace answers from the engine');
});

test('a window reading other sources than the engine is told why; its own index server answers from a library of its own, and says why', async () => {
  const configured = settings([], { codearchitect: false });
  const refused = await openWindow(configured);
  assert.ok('reason' in refused, 'the engine does not serve a window that reads other sources');
  assert.match(refused.reason, /reads other folders/);
  const own = await openOwnServer({ ...configured, ownProcess: refused.reason });
  await ready(own);
  assert.ok(
    own.log.some((m) => m.includes(`answering in this window's own process: ${refused.reason}`)),
    own.log.join('\n'),
  );
  assert.ok(!(await tree(own)).some((s) => s.source === 'codearchitect'), 'it reads what it was configured to read');
  const titles = (await own.request('workspace/symbol', { query: 'test' })) as { name: string }[];
  assert.ok(Array.isArray(titles), 'Go to Symbol in Workspace answers from its own library');
});

test("a window's own index server asked to rebuild as its first load begins closes that library first: the next one is the writer and writes every session", async () => {
  const data = tempDir();
  const copies = writeSessionCopies('fe5e1c67-53e7-4862-81ae-d0e013e3270b', 300, 20);
  const options: ServerSettings = {
    ...settings([]),
    dataDir: data,
    sources: SOURCE_IDS.map((id) => ({ id, enabled: id === 'claude-code', folders: id === 'claude-code' ? [copies] : [] })),
    ownProcess: 'SESSION_SEARCH_ENGINE=off',
  };
  const own = await openOwnServer(options, { atOnce: 'sessions/rebuild' });
  await ready(own);
  assert.equal((await tree(own)).length, 300);
  await own.close();
  windows.splice(windows.indexOf(own), 1);
  // the snapshot the window's last library wrote holds them all (a library left open held the writer lock before)
  assert.equal(snapshotSessions(readFileSync(join(data, 'index', 'snapshot.bin'))).sessions.length, 300, own.log.join('\n'));
});

test("a window's own index server shut down while its first load reads stops the load and closes its library: the writer lock is let go", async () => {
  const data = tempDir();
  const copies = writeSessionCopies('fe5e1c67-53e7-4862-81ae-d0e013e3270b', 400, 20);
  const own = await openOwnServer({
    ...settings([]),
    dataDir: data,
    sources: SOURCE_IDS.map((id) => ({ id, enabled: id === 'claude-code', folders: id === 'claude-code' ? [copies] : [] })),
    ownProcess: 'SESSION_SEARCH_ENGINE=off',
  });
  // the window closes (or restarts its server, as when its workspace is trusted) before the first load is done
  await own.close();
  windows.splice(windows.indexOf(own), 1);
  assert.ok(!existsSync(join(data, 'writer.lock')), `the writer lock is let go\n${own.log.join('\n')}`);
  // what the load read before it stopped is kept: the next start reads only the rest
  assert.ok(!own.progress.some((p) => p.state === 'ready'), 'the load was stopped before its end');
});
