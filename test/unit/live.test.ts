/** A running library stays fresh, and nothing is lost when a tool deletes its history. */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { LibraryCore } from '../../src/core/library/open.js';
import { LiveUpdates } from '../../src/core/ingest/live.js';
import { chokidarFactory, foldersFactory, type Watcher, type WatchFactory } from '../../src/core/ingest/watchers.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';
import { closeTracked, CORPUS, openTracked, ROOT, tempDir } from '../helpers.js';
import { eventually } from '../eventually.js';

const CLAUDE_ID = '4c2ddfdc-b619-4525-8d03-1950fb1b0257';
const claudeLine = (uuid: string, text: string): string =>
  `${JSON.stringify({ type: 'user', uuid, parentUuid: null, sessionId: CLAUDE_ID, cwd: '/tmp/private', timestamp: new Date().toISOString(), message: { role: 'user', content: text } })}\n`;

afterEach(closeTracked);

async function setup(dataDir = tempDir()) {
  const root = join(tempDir(), 'projects');
  const file = join(root, '-tmp-private', `${CLAUDE_ID}.jsonl`);
  mkdirSync(join(root, '-tmp-private'), { recursive: true });
  copyFileSync(join(CORPUS, 'claude-code', 'codemie', 'projects', '-tmp-private', `${CLAUDE_ID}.jsonl`), file);
  const roots: SourceRoot[] = [{ source: 'claude-code', path: root }];
  const logger = new MemoryLogger();
  const library = openTracked({ roots, logger, dataDir, env: {} });
  await library.load();
  return { root, file, roots, logger, library, dataDir };
}

const found = (library: LibraryCore, words: string) => library.search(words).results;

// each way of watching: one watch per folder (Linux's default) and chokidar (the default elsewhere)
for (const [how, watchFactory] of [
  ['one watch per folder', foldersFactory],
  ['chokidar', chokidarFactory],
] as const)
  describe(`watching (${how})`, () => {
    test('an appended turn, a rewritten file, a new file and a renamed file are all picked up', async () => {
      const { root, file, library, logger } = await setup();
      let changes = 0;
      const live = new LiveUpdates(library, { logger, debounceMs: 20, onChange: () => changes++, watchFactory });
      await live.start();
      try {
        appendFileSync(file, claudeLine('appended-1', 'zebracorn appended while the agent writes'));
        await eventually(() => found(library, 'zebracorn').length === 1, 'appended turn found');
        const seen = changes;
        appendFileSync(file, claudeLine('partial-1', 'quokkaline half').slice(0, 60)); // an incomplete last line waits
        await eventually(() => changes > seen, 'the partial append is seen');
        await live.settled();
        assert.equal(found(library, 'quokkaline').length, 0);
        assert.equal(found(library, 'zebracorn').length, 1);

        writeFileSync(file, claudeLine('rewritten-1', 'narwhalix after a rewrite'));
        await eventually(() => found(library, 'narwhalix').length === 1 && found(library, 'zebracorn').length === 0, 'rewrite replaces the old text', {
          debug: () => JSON.stringify([found(library, 'narwhalix').length, found(library, 'zebracorn').map((r) => r.id)]),
        });

        const other = join(root, 'new-project', '11111111-2222-4333-8444-555555555555.jsonl');
        mkdirSync(join(root, 'new-project'));
        writeFileSync(other, claudeLine('n1', 'okapiform in a brand new folder'));
        await eventually(() => found(library, 'okapiform').length === 1, 'a file in a new folder is found');
      } finally {
        await live.close();
      }
    });

    test('a deleted transcript stays searchable from the archive, marked source deleted, also after a restart', async () => {
      const { file, library, logger, roots, dataDir } = await setup();
      const live = new LiveUpdates(library, { logger, debounceMs: 20, watchFactory });
      await live.start();
      try {
        assert.equal(found(library, '"hello.py"')[0]?.id, `claude-code:${CLAUDE_ID}`);
        rmSync(file);
        await eventually(() => found(library, '"hello.py"')[0]?.sourceDeleted === true, 'deleted source is marked');
      } finally {
        await live.close();
      }
      const restarted = openTracked({ roots, logger: new MemoryLogger(), dataDir, env: {} });
      await restarted.load();
      const hit = found(restarted, '"hello.py"')[0];
      assert.equal(hit.id, `claude-code:${CLAUDE_ID}`);
      assert.equal(hit.sourceDeleted, true);
      assert.equal(restarted.list().sessions[0].sourceDeleted, true);
      const page = await restarted.read(`claude-code:${CLAUDE_ID}`);
      assert.ok(page.found && page.text.includes('hello.py'));
    });

    test('when the system cannot watch (ENOSPC), a warning is logged once and periodic rescans take over', async () => {
      const { file, library, logger } = await setup();
      const failing = (): Watcher => {
        const emitter = new EventEmitter() as EventEmitter & Watcher;
        emitter.close = async () => {};
        setImmediate(() => emitter.emit('error', Object.assign(new Error('watch limit'), { code: 'ENOSPC' })));
        return emitter;
      };
      const live = new LiveUpdates(library, { logger, debounceMs: 10, pollMs: 50, watchFactory: failing });
      await live.start();
      try {
        appendFileSync(file, claudeLine('polled-1', 'capybarix found by a rescan'));
        await eventually(() => found(library, 'capybarix').length === 1, 'rescan finds the append');
        assert.equal(logger.lines.filter((l) => l.includes('ENOSPC')).length, 1);
      } finally {
        await live.close();
      }
    });
  });

describe('roots that cannot be watched or go away', () => {
  test('a root on a network drive is said so once and rescanned instead of watched', async () => {
    const { file, library, logger } = await setup();
    const live = new LiveUpdates(library, { logger, debounceMs: 10, pollMs: 50, networkFileSystem: async () => 'NFS' });
    assert.equal(live.summary().started, false);
    await live.start();
    // (engine status says so: no folder watched, the root rescanned)
    assert.deepEqual(live.summary(), { started: true, folders: 0, watches: 0, polled: 1 });
    try {
      appendFileSync(file, claudeLine('nfs-1', 'nfsmarker appended on another machine'));
      await eventually(() => found(library, 'nfsmarker').length === 1, 'the rescan finds the append');
      assert.equal(logger.lines.filter((l) => l.startsWith('warn') && l.includes('is on a network drive (NFS)')).length, 1, logger.lines.join('\n'));
    } finally {
      await live.close();
    }
  });

  test('a root that disappears is reported once, its sessions stay, and it is watched again when it comes back', async () => {
    const { root, file, library, logger } = await setup();
    const live = new LiveUpdates(library, { logger, debounceMs: 10, rootCheckMs: 30 });
    await live.start();
    try {
      renameSync(root, `${root}.unmounted`);
      await eventually(() => logger.lines.some((l) => l.includes('disappeared')), 'the disappearance is reported');
      await eventually(() => found(library, '"hello.py"')[0]?.sourceDeleted === true, 'the session stays, marked deleted');
      renameSync(`${root}.unmounted`, root);
      await eventually(() => logger.lines.some((l) => l.includes('is back')), 'the return is noticed');
      await eventually(() => found(library, '"hello.py"')[0]?.sourceDeleted !== true, 'the session is live again');
      appendFileSync(file, claudeLine('back-1', 'returnmarker after the drive came back'));
      await eventually(() => found(library, 'returnmarker').length === 1, 'changes are seen again');
      assert.equal(logger.lines.filter((l) => l.includes('disappeared')).length, 1);
    } finally {
      await live.close();
    }
  });
});

test('an imported export (a file, not a folder) is not reported gone while it is there; removed, it is', async () => {
  const file = join(tempDir(), 'conversations.json');
  copyFileSync(join(ROOT, 'test', 'fixtures', 'chatgpt', 'conversations.json'), file);
  const logger = new MemoryLogger();
  const library = openTracked({ roots: [{ source: 'chatgpt', path: file }], logger, dataDir: tempDir(), env: {} });
  await library.load();
  assert.ok(library.sessions.size > 0, 'the export is read');
  const live = new LiveUpdates(library, { logger, debounceMs: 10, rootCheckMs: 20 });
  await live.start();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // (about fifteen checks of the roots)
    assert.ok(!logger.lines.some((l) => l.includes('disappeared')), logger.lines.join('\n'));
    rmSync(file);
    await eventually(() => logger.lines.some((l) => l.includes(`${file} disappeared`)), 'the removal is reported');
  } finally {
    await live.close();
  }
});

describe('answers while an agent writes', () => {
  test('waiting for the changes seen so far reads them, and does not wait for what an agent keeps writing after', async () => {
    const { file, library, logger } = await setup();
    const live = new LiveUpdates(library, { logger, debounceMs: 50 });
    await live.start();
    let written = 0;
    let writing = true;
    // an agent appending a turn every 20 ms: its file is never quiet for the 50 ms a read waits for
    const agent = (async () => {
      for (; writing && written < 500; written++) {
        appendFileSync(file, claudeLine(`agent-${written}`, `busyagent turn zq${written}x`));
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      await eventually(() => found(library, 'busyagent').length === 1, 'the agent’s first turns are read');
      for (let round = 0; round < 3; round++) {
        await new Promise((r) => setTimeout(r, 100));
        const asked = written - 1;
        await live.settled();
        assert.ok(writing && written < 500, 'it returned while the agent was still writing');
        assert.equal(found(library, `zq${asked}x`).length, 1, `the turn written before it was asked (${asked}) is read`);
      }
    } finally {
      writing = false;
      await agent;
      await live.close();
    }
  });
});

describe('one folder read for two sources', () => {
  test('a workspace folder read for SpecStory and Aider is watched once, for both, and stays watched for the one left', async () => {
    const workspace = tempDir();
    const history = join(workspace, '.specstory', 'history');
    mkdirSync(history, { recursive: true });
    const name = '2026-01-29_14-35-22Z-already-done-the-test.md';
    copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', name), join(history, name));
    const logger = new MemoryLogger();
    const library = openTracked({ roots: [], logger, env: {} });
    await library.load();
    const made: string[] = [];
    const counting: WatchFactory = (root, accepts, known) => {
      made.push(root.path);
      return foldersFactory(root, accepts, known);
    };
    const live = new LiveUpdates(library, { logger, debounceMs: 10, watchFactory: counting });
    await live.start();
    try {
      const specstory = (await library.addRoot({ source: 'specstory', path: workspace }))!;
      const aider = (await library.addRoot({ source: 'aider', path: workspace }))!;
      await live.watch(specstory);
      await live.watch(aider);
      assert.deepEqual(made, [specstory.path], 'one watcher serves the folder for both sources');
      // a file of each source written while watched is read, by the source it belongs to
      copyFileSync(join(CORPUS, 'aider', 'zen-mcp-server', '.aider.chat.history.md'), join(workspace, '.aider.chat.history.md'));
      const other = '2026-01-29_16-26-43Z-the-test-inversions-have.md';
      copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', other), join(history, other));
      const sources = () => [...library.sessions.values()].map((s) => s.source);
      await eventually(
        () => sources().filter((s) => s === 'aider').length > 0 && sources().filter((s) => s === 'specstory').length === 2,
        'both files are read',
        {
          debug: () => JSON.stringify(sources()),
        },
      );
      // SpecStory no longer read there: the watcher stays for Aider's histories, and reads only those
      await live.unwatch(specstory);
      library.dropRoot(specstory);
      const aiderBefore = sources().filter((s) => s === 'aider').length;
      mkdirSync(join(workspace, 'sub'));
      copyFileSync(join(CORPUS, 'aider', 'zen-mcp-server', '.aider.chat.history.md'), join(workspace, 'sub', '.aider.chat.history.md'));
      const third = '2026-01-29_16-26-43Z-the-test-inversions-have.md';
      copyFileSync(join(CORPUS, 'specstory', 'specstory-cli', 'history', third), join(history, `2026-02-01_10-00-00Z-${third.slice(21)}`));
      await eventually(() => sources().filter((s) => s === 'aider').length > aiderBefore, 'the Aider history in a new folder is read', {
        debug: () => JSON.stringify(sources()),
      });
      await live.settled();
      assert.equal(sources().filter((s) => s === 'specstory').length, 2, 'a SpecStory history is no longer read there');
      assert.deepEqual(made, [specstory.path]);
    } finally {
      await live.close();
    }
  });
});

describe('archive', () => {
  test('unchanged files come from the archive on the next start; the source is never written', async () => {
    const { file, dataDir, roots } = await setup();
    const before = readFileSync(file);
    const second = openTracked({ roots, logger: new MemoryLogger(), dataDir, env: {} });
    await second.load();
    assert.equal(found(second, '"hello.py"')[0]?.id, `claude-code:${CLAUDE_ID}`);
    assert.deepEqual(readFileSync(file), before);
    const size = await second.archive!.size();
    assert.equal(size.entries, 1);
    assert.ok(size.bytes > 1000);
  });

  test('a renamed Codex rollout keeps its session', async () => {
    const root = join(tempDir(), 'sessions');
    mkdirSync(root, { recursive: true });
    const name = 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl';
    copyFileSync(join(CORPUS, 'codex', 'codemie', name), join(root, name));
    const logger = new MemoryLogger();
    const library = openTracked({ roots: [{ source: 'codex', path: root }], logger, dataDir: tempDir(), env: {} });
    await library.load();
    const live = new LiveUpdates(library, { logger, debounceMs: 20 });
    await live.start();
    try {
      mkdirSync(join(root, 'archived'));
      renameSync(join(root, name), join(root, 'archived', name));
      const id = 'codex:019e1625-789d-76c0-80ab-3724b5ddb799';
      await eventually(() => library.sessions.get(id)?.file === join(root, 'archived', name), 'renamed file keeps the session');
      await live.settled();
      assert.equal(library.sessions.get(id)?.sourceDeleted, undefined);
      assert.equal(library.list().count, 1);
    } finally {
      await live.close();
    }
  });
});
