/**
 * Which engine serves a data folder: the pid file is claimed whole or not at all, a live engine's claim and socket are
 * never taken, and what a crashed engine left is.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { claim, listenAlone } from '../../src/engine/claim.js';
import { eventually } from '../eventually.js';
import { tempDir } from '../helpers.js';

test('the pid file is claimed once, whole, and not from a live process; a dead one’s is taken over', () => {
  const dir = tempDir();
  const pidFile = join(dir, 'pid');
  assert.equal(claim(pidFile), true);
  assert.equal(readFileSync(pidFile, 'utf8'), String(process.pid));
  assert.deepEqual(readdirSync(dir), ['pid'], 'nothing is left beside it');
  // held by another live process (this one's parent): refused, and left as it is
  writeFileSync(pidFile, String(process.ppid));
  assert.equal(claim(pidFile), false);
  assert.equal(readFileSync(pidFile, 'utf8'), String(process.ppid));
  // held by a process that is gone, or damaged: taken over
  for (const left of ['2147483000', '', 'not a pid']) {
    writeFileSync(pidFile, left);
    assert.equal(claim(pidFile), true, JSON.stringify(left));
    assert.equal(readFileSync(pidFile, 'utf8'), String(process.pid));
  }
});

test('a socket that answers is another engine’s and is left to it; one a crashed engine left is taken over', async () => {
  const dir = tempDir('ss-');
  const path = join(dir, 'sock');
  // (the probe that finds it answering hangs up at once: that is no error of the server's)
  const live = createServer((socket) => socket.on('error', () => undefined).end('live'));
  await new Promise<void>((resolve) => live.listen(path, resolve));
  const second = createServer();
  assert.equal(await listenAlone(second, path), false);
  const answer = await new Promise<string>((resolve) => connect(path).on('data', (d) => resolve(String(d))));
  assert.equal(answer, 'live', 'the live one still answers on its socket');
  await new Promise<void>((resolve) => live.close(() => resolve()));

  // a process that listened there and was killed leaves its socket file behind, answering nothing
  const crashed = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`]);
  await new Promise((resolve) => crashed.stdout.once('data', resolve));
  crashed.kill('SIGKILL');
  await eventually(() => crashed.exitCode !== null || crashed.signalCode !== null, 'the listener was killed');
  assert.ok(existsSync(path), 'its socket file is left');
  const next = createServer((socket) => socket.on('error', () => undefined).end('next'));
  assert.equal(await listenAlone(next, path), true);
  const reply = await new Promise<string>((resolve) => connect(path).on('data', (d) => resolve(String(d))));
  assert.equal(reply, 'next');
  await new Promise<void>((resolve) => next.close(() => resolve()));
});
