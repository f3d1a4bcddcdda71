/**
 * The engine's edges that timing decides: engines started at the same moment for one data folder leave exactly one
 * serving (two once served together, the second a process that never ended); and a command whose engine breaks off in
 * the middle of an answer still answers and ends (it stayed alive, its work done, for as long as anyone waited).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventually } from '../eventually.js';
import { ROOT } from '../helpers.js';
import { enginePid, HOME_DIR, setup, stopEngine } from './engine-setup.js';
import { running } from '../../src/core/store/running.js';

test('engines started at the same moment for one data folder leave one serving; the others end', async () => {
  for (let round = 0; round < 4; round++) {
    const { data, root } = setup();
    const serve = () =>
      spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'serve', '--data', data, '--no-default-roots', '--root', root], {
        env: { ...process.env, HOME: HOME_DIR },
        stdio: 'ignore',
      });
    const started = [serve(), serve(), serve()];
    const ended = started.map((child) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))));
    await eventually(() => existsSync(join(data, 'engine', 'pid')) && existsSync(join(data, 'engine', 'sock')), 'an engine serves');
    const serving = enginePid(data);
    // every other one ends on its own, having served nothing
    const others = started.filter((c) => c.pid !== serving);
    assert.equal(others.length, 2, `the pid file names one of the three (${serving})`);
    const codes = await Promise.all(ended.filter((_, i) => started[i].pid !== serving));
    assert.deepEqual(codes, [0, 0]);
    assert.ok(running(serving), 'the one named serves on');
    assert.equal(enginePid(data), serving, 'and is still the one named');
    const log = readFileSync(join(data, 'engine', 'engine.log'), 'utf8');
    assert.equal(log.match(/ serving /g)?.length, 1, log);
    await stopEngine(data);
  }
});

test('a command whose engine breaks off in the middle of an answer answers in its own process and ends', async () => {
  const { data, root } = setup();
  // something on the engine's socket that starts every answer and goes before its end
  mkdirSync(join(data, 'engine'), { recursive: true, mode: 0o700 });
  let broken = 0;
  const server = createServer((socket) => {
    socket.once('data', () => {
      broken++;
      socket.end('Content-Length: 400\r\n\r\n{"jsonrpc":"2.0","id":0,"result":{"vers');
    });
  });
  await new Promise<void>((resolve) => server.listen(join(data, 'engine', 'sock'), resolve));
  try {
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'search', 'MockRepoMap', '--json', '--verbose', '--root', root, '--data', data], {
        env: { ...process.env, HOME: HOME_DIR },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      // (it ends within seconds; without an end of its own it would wait as long as anyone let it)
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    assert.equal(r.code, 0, `it ended by itself, with its answer\n${r.stderr}`);
    assert.ok(broken > 0, 'it asked the broken engine first');
    assert.match(r.stderr, /answering in this process/);
    assert.ok((JSON.parse(r.stdout) as { results: unknown[] }).results.length > 0);
  } finally {
    server.close();
  }
});
