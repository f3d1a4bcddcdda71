/**
 * One watch per folder: what it reports of files and folders that change, appear, move and go, and that a running
 * library stays right through them.
 */
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { watchFolders } from '../../src/core/ingest/folder-watcher.js';
import { LiveUpdates } from '../../src/core/ingest/live.js';
import { foldersFactory } from '../../src/core/ingest/watchers.js';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { CORPUS, tempDir } from '../helpers.js';
import { eventually } from '../eventually.js';

const accepts = (file: string): boolean => file.endsWith('.jsonl');

async function ready(root: string, known: (folder: string) => string[] = () => []) {
  const seen: [string, string][] = [];
  const watcher = watchFolders(root, { accepts, known });
  for (const event of ['add', 'change', 'unlink'] as const) watcher.on(event, (path) => seen.push([event, path]));
  await new Promise<void>((resolve) => watcher.on('ready', resolve));
  return { watcher, seen };
}

test('a watch per folder, not per file: appends, new files and new folders are reported, files it does not read are not', async () => {
  const root = tempDir();
  for (let f = 0; f < 5; f++) {
    mkdirSync(join(root, `p${f}`));
    for (let k = 0; k < 4; k++) writeFileSync(join(root, `p${f}`, `${k}.jsonl`), '{}\n');
  }
  mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
  const { watcher, seen } = await ready(root);
  try {
    assert.equal(watcher.watches, 6, 'the root and its five folders; not node_modules');
    appendFileSync(join(root, 'p1', '2.jsonl'), '{"more":1}\n');
    writeFileSync(join(root, 'p3', 'notes.txt'), 'not a transcript');
    await eventually(() => seen.some(([e, p]) => e === 'change' && p === join(root, 'p1', '2.jsonl')), 'the append is reported');
    // a folder tree made at once, a transcript at its bottom
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'c', 'deep.jsonl'), '{}\n');
    await eventually(() => seen.some(([, p]) => p === join(root, 'a', 'b', 'c', 'deep.jsonl')), 'the file in the new tree is reported', {
      debug: () => JSON.stringify(seen),
    });
    await eventually(() => watcher.watches === 9, 'the new folders are watched', { debug: () => String(watcher.watches) });
    appendFileSync(join(root, 'a', 'b', 'c', 'deep.jsonl'), '{}\n');
    const before = seen.length;
    await eventually(() => seen.slice(before).some(([e, p]) => e === 'change' && p.endsWith('deep.jsonl')), 'a change in the new folder is reported');
    assert.ok(!seen.some(([, p]) => p.endsWith('notes.txt') || p.includes('node_modules')), JSON.stringify(seen));
  } finally {
    await watcher.close();
  }
  assert.equal(watcher.watches, 0);
});

test('a folder that goes away reports the files the library held from it, and is no longer watched', async () => {
  const root = tempDir();
  mkdirSync(join(root, 'gone', 'inner'), { recursive: true });
  const held = [join(root, 'gone', 'x.jsonl'), join(root, 'gone', 'inner', 'y.jsonl')];
  for (const file of held) writeFileSync(file, '{}\n');
  const { watcher, seen } = await ready(root, (folder) => held.filter((f) => f.startsWith(`${folder}/`)));
  try {
    assert.equal(watcher.watches, 3);
    rmSync(join(root, 'gone'), { recursive: true });
    await eventually(() => held.every((f) => seen.some(([e, p]) => e === 'unlink' && p === f)), 'its files are reported gone', {
      debug: () => JSON.stringify(seen),
    });
    await eventually(() => watcher.watches === 1, 'only the root is watched');
  } finally {
    await watcher.close();
  }
});

test('a running library follows a project folder that is removed, and one that is moved, with one watch per folder', async () => {
  const id = '4c2ddfdc-b619-4525-8d03-1950fb1b0257';
  const root = join(tempDir(), 'projects');
  mkdirSync(join(root, '-tmp-private'), { recursive: true });
  copyFileSync(join(CORPUS, 'claude-code', 'codemie', 'projects', '-tmp-private', `${id}.jsonl`), join(root, '-tmp-private', `${id}.jsonl`));
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, dataDir: tempDir(), env: {} });
  await library.load();
  const live = new LiveUpdates(library, { logger, debounceMs: 10, watchFactory: foldersFactory });
  await live.start();
  const hit = () => library.search('"hello.py"').results[0];
  try {
    assert.equal(hit()?.id, `claude-code:${id}`);
    // moved: the session is read at its new place, and is not marked deleted
    renameSync(join(root, '-tmp-private'), join(root, '-tmp-moved'));
    await eventually(() => hit()?.file === join(root, '-tmp-moved', `${id}.jsonl`) && hit()?.sourceDeleted !== true, 'the moved session is live', {
      debug: () => JSON.stringify(hit()),
    });
    // removed: the session stays, marked deleted
    rmSync(join(root, '-tmp-moved'), { recursive: true });
    await eventually(() => hit()?.sourceDeleted === true, 'the removed session stays, marked deleted', { debug: () => JSON.stringify(hit()) });
  } finally {
    await live.close();
    await library.close();
  }
});
