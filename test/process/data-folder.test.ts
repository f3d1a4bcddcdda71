/** One data folder shared by several processes, processes killed mid-write, and a burst of new transcripts. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../eventually.js';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { LiveUpdates } from '../../src/core/ingest/live.js';
import { MemoryLogger } from '../../src/core/log.js';
import { CORPUS, ROOT, tempDir } from '../helpers.js';

const CLI = join(ROOT, 'dist', 'cli.cjs');

function corpusCopy(): string {
  const root = tempDir();
  cpSync(join(CORPUS, 'claude-code'), join(root, 'claude'), { recursive: true });
  return join(root, 'claude');
}

async function loadsCleanly(dataDir: string, root: string): Promise<LibraryCore> {
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, dataDir, env: {} });
  await library.load();
  assert.ok(!logger.lines.some((l) => l.includes('archive entry unreadable')), logger.lines.join('\n'));
  return library;
}

test('two processes using one data folder at once both answer, and the archive stays readable', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const run = () =>
    new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'search', 'CLAUDE.md', '--root', `claude-code=${root}`, '--data', data, '--json'], { stdio: 'ignore' });
      child.on('exit', (code) => resolve(code ?? 1));
    });
  assert.deepEqual(await Promise.all([run(), run()]), [0, 0]);
  const library = await loadsCleanly(data, root);
  assert.ok(library.search('CLAUDE.md').count > 0);
  await library.close();
});

/**
 * Starts `session-search list` on a data folder and kills it (SIGKILL) the moment `seen` holds (polled every
 * millisecond): the signal follows what the process is seen doing, not a guess of how long it takes. Resolves whether
 * it was killed (false: it finished first).
 */
function killWhen(root: string, data: string): (seen: () => boolean) => Promise<boolean> {
  return (seen) =>
    new Promise<boolean>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'list', '--root', `claude-code=${root}`, '--data', data], { stdio: 'ignore' });
      let killed = false;
      const poll = setInterval(() => {
        try {
          if (!seen()) return;
        } catch {
          return; // a file went away between listing and looking at it
        }
        killed = child.kill('SIGKILL');
        clearInterval(poll);
      }, 1);
      child.on('exit', () => {
        clearInterval(poll);
        resolve(killed);
      });
    });
}

test('killing a process (SIGKILL) while it writes the archive never leaves a data folder that fails to load', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const runUntil = killWhen(root, data);
  const entries = join(data, 'archive', 'v1');
  const names = (): string[] => (existsSync(entries) ? readdirSync(entries) : []);
  let killedWriting = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = names().filter((n) => n.endsWith('.jsonl')).length;
    // Killed as an entry is seen being written (its temporary file), a little later each time.
    killedWriting += (await runUntil(() => {
      const now = names();
      return now.some((n) => n.endsWith('.tmp')) && now.filter((n) => n.endsWith('.jsonl')).length >= before + attempt;
    }))
      ? 1
      : 0;
  }
  assert.ok(killedWriting > 0, 'at least one run was killed in the middle of writing an entry');
  const library = await loadsCleanly(data, root);
  const fresh = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await fresh.load();
  assert.equal(library.sessions.size, fresh.sessions.size, 'every session is there, from the archive or read again');
  const result = spawnSync(process.execPath, [CLI, 'archive', 'size', '--data', data, '--json'], { encoding: 'utf8' });
  assert.equal(result.status, 0);
  await library.close();
  await fresh.close();
});

test('10,000 transcripts appearing at once are all indexed by a running library', async () => {
  const root = join(tempDir(), 'projects');
  mkdirSync(root);
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, env: {} });
  await library.load();
  const live = new LiveUpdates(library, { logger, debounceMs: 20 });
  await live.start();
  try {
    const n = 10_000;
    for (let i = 0; i < n; i++) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const dir = join(root, `p${i % 100}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, `${id}.jsonl`),
        `${JSON.stringify({ type: 'user', uuid: `u${i}`, sessionId: id, cwd: '/p', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: `burstword number${i}` } })}\n`,
      );
    }
    await eventually(() => library.search('burstword', { limit: 20_000 }).count === n, `all ${n} new sessions are found`, {
      timeoutMs: 180_000,
      intervalMs: 100,
      debug: () => `${library.search('burstword', { limit: 20_000 }).count} found`,
    });
    assert.equal(readdirSync(root).length, 100);
  } finally {
    await live.close();
  }
});

const SESSION = '11111111-2222-4333-8444-555555555555';

function record(text: string, i = 0): string {
  return `${JSON.stringify({ type: 'user', uuid: `u-${i}-${text}`, sessionId: SESSION, cwd: '/p', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: text } })}\n`;
}

test('killing the writer (kill -9) while it writes the snapshot, again and again, never leaves a data folder that fails to load', async () => {
  const root = corpusCopy();
  const data = tempDir();
  const runUntil = killWhen(root, data);
  let killedWriting = 0;
  for (let attempt = 0; attempt < 8; attempt++) {
    // Each run finds something new to write, so every run writes a snapshot.
    writeFileSync(join(root, `extra-${attempt}.jsonl`), record(`killrun${attempt}`, attempt).replace(SESSION, `${SESSION.slice(0, -1)}${attempt}`));
    // Killed once the new snapshot is seen being written, after a little more of it each time.
    const index = join(data, 'index');
    killedWriting += (await runUntil(() =>
      (existsSync(index) ? readdirSync(index) : []).some(
        (n) => n.endsWith('.tmp') && (statSync(join(index, n), { throwIfNoEntry: false })?.size ?? 0) >= attempt * 16 * 1024,
      ),
    ))
      ? 1
      : 0;
  }
  assert.ok(killedWriting > 0, 'at least one run was killed in the middle of writing the snapshot');
  // The dead writer's lock is not refreshed any more; it would go stale by itself, here it is made old at once.
  const lock = join(data, 'writer.lock');
  if (existsSync(lock)) utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: data, env: {} });
  await library.load();
  assert.ok(!logger.lines.some((l) => /snapshot discarded|unreadable/.test(l)), logger.lines.join('\n'));
  const reference = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await reference.load();
  assert.equal(library.sessions.size, reference.sessions.size);
  for (let attempt = 0; attempt < 8; attempt++) assert.equal(library.search(`killrun${attempt}`).count, 1);
  assert.ok(library.persistence?.lock.held, 'the stale lock of the killed writer was taken over');
});
