/**
 * `session-search engine status|start|stop`, as a user checks on the data folder's engine: asking never starts one nor
 * keeps an idle one up, the clients are told apart by kind, and stop leaves its snapshot written.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eventually } from '../eventually.js';
import { CORPUS, inotifyWatches, ROOT } from '../helpers.js';
import { running } from '../../src/core/store/running.js';
import { openEngine } from '../../src/engine/client.js';
import type { EngineAbout } from '../../src/engine/protocol.js';
import { enginePid, HOME_DIR, setup, stopEngine } from './engine-setup.js';

type Status = { running: false; dataDir: string } | ({ running: true } & EngineAbout);

test('engine status neither starts an engine nor keeps an idle one up; start starts one', async () => {
  const { data, cli } = setup();
  const none = cli(['engine', 'status', '--json']);
  assert.equal(none.code, 3, none.stderr);
  assert.deepEqual(JSON.parse(none.stdout), { running: false, dataDir: data });
  assert.ok(!existsSync(join(data, 'engine', 'pid')), 'asking started no engine');

  const started = cli(['engine', 'start'], { SESSION_SEARCH_ENGINE_IDLE_MS: '2000' });
  assert.equal(started.code, 0, started.stderr);
  const pid = enginePid(data);
  assert.ok(running(pid));
  assert.match(started.stdout, new RegExp(`^Engine of .+: running, pid ${pid}, version `));
  // asked again and again, more often than its idle time: it stops all the same
  let asked = 0;
  await eventually(
    () => {
      asked++;
      return cli(['engine', 'status']).code === 3;
    },
    'the idle engine stopped while it was asked how it is',
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  assert.ok(asked > 3, `it was asked while idle (${asked} times)`);
  assert.ok(!running(pid));
});

test('engine status tells the clients apart and counts the sessions; engine stop stops it with its snapshot written', async () => {
  const { data, root, cli } = setup();
  assert.equal(cli(['search', 'MockRepoMap', '--json']).code, 0);
  const pid = enginePid(data);
  const first = JSON.parse(cli(['engine', 'status', '--json']).stdout) as Status;
  assert.ok(first.running);
  const listed = JSON.parse(cli(['list', '--json']).stdout) as { count: number };
  assert.equal(first.pid, pid);
  assert.equal(first.dataDir, data);
  assert.ok(first.status.complete);
  assert.equal(first.status.sessions, listed.count);
  assert.deepEqual(first.clients, { windows: 0, agents: 0, commands: 0 });
  assert.ok(first.stopsInMs !== null && first.stopsInMs <= first.idleStopMs, 'with no client it counts down to its idle stop');
  assert.ok(first.rssBytes > first.heapUsedBytes && first.heapUsedBytes > 0);
  assert.ok(existsSync(first.log));
  // its watchers, once started (a second after the load), as many system watches as the kernel counts for it
  let watched: Status = first;
  await eventually(
    () => {
      watched = JSON.parse(cli(['engine', 'status', '--json']).stdout) as Status;
      return watched.running && watched.watching?.started === true;
    },
    'the watchers started',
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  assert.ok(watched.running && watched.watching);
  assert.equal(watched.watching.folders, 1, 'the one root');
  assert.equal(watched.watching.polled, 0);
  if (process.platform === 'linux') {
    assert.ok(watched.watching.watches! > 0);
    assert.equal(watched.watching.watches, inotifyWatches(pid), 'the watches it says it holds are the ones the kernel counts');
    assert.equal(watched.watchLimit, Number(readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8')));
    assert.match(
      cli(['engine', 'status']).stdout,
      new RegExp(`Watching: +1 root, [\\d,]+ folders? in them \\(a system watch each, of the [\\d,]+ this user may hold\\)\\n`),
    );
  }

  // an agent's MCP server, a window's link and a command, connected at once
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'dist', 'mcp.js'), '--root', root, '--data', data],
    env: { ...(process.env as Record<string, string>), HOME: HOME_DIR },
    stderr: 'ignore',
  });
  const agent = new Client({ name: 'engine-status-test', version: '1.0.0' });
  await agent.connect(transport);
  const asClient = (window: boolean) =>
    openEngine({
      roots: [{ source: 'codearchitect', path: join(CORPUS, 'codearchitect', 'sessions') }],
      dataDir: data,
      archive: true,
      version: first.version,
      entry: join(ROOT, 'dist', 'engine.cjs'),
      window,
      watchWorkspace: window,
    });
  const opened = [await asClient(true), await asClient(false)];
  try {
    await agent.callTool({ name: 'search_session', arguments: { query: 'MockRepoMap' } });
    for (const o of opened) assert.ok('engine' in o, JSON.stringify(o));
    const busy = JSON.parse(cli(['engine', 'status', '--json']).stdout) as Status;
    assert.ok(busy.running);
    assert.deepEqual(busy.clients, { windows: 1, agents: 1, commands: 1 });
    assert.equal(busy.stopsInMs, null, 'it stays while clients are connected');
    assert.match(cli(['engine', 'status']).stdout, /Clients: +1 VS Code window, 1 MCP server, 1 other command\n/);
  } finally {
    for (const o of opened) if ('engine' in o) await o.engine.close();
    await agent.close();
  }

  const stopped = cli(['engine', 'stop']);
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stdout, new RegExp(`^Stopped the engine \\(pid ${pid}\\)`));
  assert.ok(!running(pid), 'it is gone when stop returns');
  assert.ok(existsSync(join(data, 'index', 'snapshot.bin')), 'its snapshot is written');
  assert.match(
    readFileSync(join(data, 'engine', 'engine.log'), 'utf8'),
    /engine stops: asked to let go of the data folder \(engine stop/,
    'its log says why it stopped',
  );
  assert.equal(cli(['engine', 'status']).code, 3);
  assert.equal(cli(['engine', 'stop']).code, 0, 'stopping no engine is no error');
  await stopEngine(data);
});
