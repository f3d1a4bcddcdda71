/** How `session-search engine status` (and Show Engine Status) words a running engine. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEngine, duration } from '../../src/engine/about-text.js';
import type { EngineAbout } from '../../src/engine/protocol.js';

const about = (over: Partial<EngineAbout> = {}): EngineAbout => ({
  pid: 4242,
  version: '1.2.3+abc',
  dataDir: '/home/me/.session-search',
  startedAt: new Date(Date.now() - 3 * 60_000).toISOString(),
  rssBytes: 218 * 1048576,
  heapUsedBytes: 70 * 1048576,
  clients: { windows: 2, agents: 1, commands: 0 },
  idleStopMs: 15 * 60_000,
  stopsInMs: null,
  status: { filesDone: 10_000, filesTotal: 10_000, bytesDone: 1, bytesTotal: 1, complete: true, sessions: 10_001, unread: 0 },
  meaning: 'ready',
  watching: { started: true, folders: 3, watches: 2_089, polled: 0 },
  watchLimit: 8_192,
  log: '/home/me/.session-search/engine/engine.log',
  ...over,
});

test('durations read as people say them', () => {
  assert.equal(duration(0), '0 s');
  assert.equal(duration(59_000), '59 s');
  assert.equal(duration(60_000), '1 min');
  assert.equal(duration(15 * 60_000), '15 min');
  assert.equal(duration(90 * 60_000), '1 h 30 min');
  assert.equal(duration(120 * 60_000), '2 h');
});

test('a running engine: one line per aspect, clients by kind, and when it stops', () => {
  const text = describeEngine(about());
  assert.match(text, /^Engine of \/home\/me\/\.session-search: running, pid 4242, version 1\.2\.3\+abc, up 3 min\n/);
  assert.match(text, /\n {2}Sessions: {2}10,001 searchable; the index is complete\n/);
  assert.match(text, /\n {2}Meaning: {3}the model that ranks by meaning is learned\n/);
  assert.match(text, /\n {2}Memory: {4}218 MB resident \(JavaScript heap 70 MB\)\n/);
  assert.match(text, /\n {2}Watching: {2}3 roots, 2,089 folders in them \(a system watch each, of the 8,192 this user may hold\)\n/);
  assert.match(text, /\n {2}Clients: {3}2 VS Code windows, 1 MCP server, 0 other commands\n/);
  assert.match(text, /\n {2}Stops: {5}after 15 min with no client; clients are connected\n/);
  assert.match(text, /\n {2}Log: {7}\/home\/me\/\.session-search\/engine\/engine\.log\n$/);
});

test('an engine still indexing, with no client, counting down to its idle stop', () => {
  const text = describeEngine(
    about({
      clients: { windows: 0, agents: 0, commands: 1 },
      stopsInMs: 14 * 60_000,
      meaning: 'empty',
      watching: { started: false, folders: 0, watches: 0, polled: 0 },
      status: { filesDone: 1_200, filesTotal: 10_000, bytesDone: 1, bytesTotal: 2, complete: false, sessions: 1_190, unread: 0 },
    }),
  );
  assert.match(text, /Sessions: {2}1,190 searchable so far; indexing, 1,200 of 10,000 files read\n/);
  assert.match(text, /Meaning: {3}the model that ranks by meaning is not learned yet \(answers rank by words\)\n/);
  assert.match(text, /Clients: {3}0 VS Code windows, 0 MCP servers, 1 other command\n/);
  assert.match(text, /Watching: {2}not yet \(the watchers start a second after the first load\)\n/);
  assert.match(text, /Stops: {5}in 14 min unless a client connects \(after 15 min with no client\)\n/);
});

test('an engine of an earlier build, which cannot say more, is named with the way to replace it', () => {
  const text = describeEngine({ pid: 7, version: '0.9.0', dataDir: '/d' });
  assert.equal(text.split('\n')[0], 'Engine of /d: running, pid 7, version 0.9.0');
  assert.match(text, /`session-search engine stop` stops it/);
});

test('a root rescanned on a timer, and a platform that does not count watches', () => {
  const text = describeEngine(about({ watching: { started: true, folders: 2, polled: 1 }, watchLimit: undefined }));
  assert.match(text, /Watching: {2}2 roots; 1 root rescanned on a timer instead \(a network drive, or no watch left\)\n/);
});
