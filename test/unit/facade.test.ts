/**
 * The library's facade (src/core/library.ts): what every front end holds is methods only, agrees with itself for
 * every session, and owns its team overlay and its shutdown order. The core behind it is the core's and its tests'.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createLibrary, type SessionLibrary } from '../../src/core/library.js';
import { MemoryLogger } from '../../src/core/log.js';
import { corpusRoots, ROOT, tempDir } from '../helpers.js';
import { corpusCopy } from '../damage.js';
import { archiveFolder } from '../../src/core/store/entry-name.js';
import type { SearchResponse } from '../../src/core/contracts.js';

async function loaded(dataDir = tempDir()): Promise<SessionLibrary> {
  const library = createLibrary({ roots: corpusRoots, logger: new MemoryLogger(), dataDir, env: {} });
  await library.load();
  return library;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('the facade holds methods only, and no front end opens the core behind it', async () => {
  const library = await loaded();
  try {
    const members = Object.keys(library);
    assert.ok(members.length > 30, `${members.length} members`);
    for (const name of members) assert.equal(typeof (library as unknown as Record<string, unknown>)[name], 'function', `${name} is not a method`);
  } finally {
    await library.close();
  }
  const frontEnds = ['cli', 'mcp', 'engine', 'server', 'extension'].flatMap((d) => sourceFiles(join(ROOT, 'src', d)));
  assert.ok(frontEnds.length > 20);
  for (const file of frontEnds) assert.doesNotMatch(readFileSync(file, 'utf8'), /core\/library\/(open|catalog|loader)\.js/, file);
});

test('its counts, tree and records agree with its list, for every session', async () => {
  const library = await loaded();
  try {
    const status = library.status();
    assert.equal(status.complete, true);
    const listed = library.list({ limit: 100_000 }).sessions;
    assert.ok(listed.length > 100, `${listed.length} sessions`);
    assert.equal(status.sessions, listed.length);
    const tree = await library.tree();
    assert.deepEqual(new Set(tree.map((t) => t.id)), new Set(listed.map((s) => s.id)));
    for (let i = 1; i < tree.length; i++) assert.ok(tree[i - 1].updated >= tree[i].updated, 'the tree is newest first');
    assert.deepEqual(
      (await library.tree(5)).map((t) => t.id),
      tree.slice(0, 5).map((t) => t.id),
    );
    const sources = new Set(tree.map((t) => t.source));
    assert.equal(
      [...sources].reduce((n, source) => n + library.countSessions({ source }), 0),
      status.sessions,
    );
    for (const root of corpusRoots) assert.equal(library.countSessions({ inside: root.path }), tree.filter((t) => t.file.startsWith(`${root.path}/`)).length);
    for (const t of tree) {
      assert.ok(library.countSessions({ files: [t.file] }) >= 1, t.file);
      const record = library.session(t.id)!;
      assert.equal(record.source, t.source);
      assert.equal(record.file, t.file);
      // a copy: what a caller does with it does not change the library
      record.topic = 'changed by a caller';
      assert.notEqual(library.session(t.id)!.topic, 'changed by a caller');
    }
    assert.equal(library.session('no-such-session'), undefined);
    // with no team archive and no model, a front end's search is the library's search
    for (const query of ['database connection', 'test', 'refactor the parser', 'README']) {
      const [front, plain] = [await library.searchAll(query, { limit: 20 }), library.search(query, { limit: 20 })];
      assert.deepEqual(
        front.results.map((r) => [r.id, r.relevanceScore]),
        plain.results.map((r) => [r.id, r.relevanceScore]),
        query,
      );
    }
    await library.saveSnapshot();
    const info = await library.archiveInfo();
    assert.equal(info.enabled, true);
    assert.ok(info.entries >= new Set(tree.map((t) => t.file)).size, `${info.entries} entries`);
    assert.ok(info.bytes > 0 && info.snapshotBytes > 0);
  } finally {
    await library.close();
  }
});

test('closing waits for a load still running, then the data folder is free for the next library', async () => {
  const dataDir = tempDir();
  const library = createLibrary({ roots: corpusRoots, logger: new MemoryLogger(), dataDir, env: {} });
  let ended = false;
  void library.load().then(() => (ended = true));
  await library.close();
  assert.equal(ended, true, 'close resolved before the load ended');
  // closing twice is closing once
  await library.close();
  const next = await loaded(dataDir);
  try {
    const logger = new MemoryLogger();
    const third = createLibrary({ roots: corpusRoots, logger, dataDir, env: {} });
    await third.load();
    assert.equal(third.status().sessions, next.status().sessions);
    await third.close();
  } finally {
    await next.close();
  }
});

test('a team archive that cannot be reached leaves local answers, says so, and closes with the library', async () => {
  const logger = new MemoryLogger();
  const team = { url: 'postgres://nobody@127.0.0.1:1/none', machine: 'here' };
  const library = createLibrary({ roots: corpusRoots, logger, env: {}, team });
  await library.load();
  try {
    const local = library.search('database connection', { limit: 10 });
    const answer = await library.searchAll('database connection', { limit: 10 });
    assert.match(answer.teamNotice ?? '', /cannot be reached.*local results only/);
    assert.deepEqual(
      answer.results.map((r) => r.id),
      local.results.map((r) => r.id),
    );
    // the tree shows the local sessions, and the log says why the team's are missing
    assert.equal((await library.tree(undefined, team)).length, library.status().sessions);
    assert.ok(logger.lines.some((l) => /team sessions for the tree/.test(l)));
    // a session of this machine is read locally, whatever the team
    const first = local.results[0];
    assert.equal((await library.get(first.id, { team })).session.id, first.id);
  } finally {
    await library.close();
  }
});

test('a search (and a context search) whose snippets find stored turns damaged answers again once the transcripts are read', async () => {
  const root = corpusCopy();
  const options = { roots: [{ source: 'claude-code' as const, path: root }], env: {} };
  const dataDir = tempDir();
  const first = createLibrary({ ...options, logger: new MemoryLogger(), dataDir });
  await first.load();
  await first.close();
  const reference = createLibrary({ ...options, logger: new MemoryLogger() });
  await reference.load();
  const logger = new MemoryLogger();
  const library = createLibrary({ ...options, logger, dataDir });
  await library.load();
  try {
    // every archived session's stored turns zeroed under the running library: what its answers read of them is damaged
    const archive = archiveFolder(dataDir);
    for (const name of readdirSync(archive)) writeFileSync(join(archive, name), Buffer.alloc(statSync(join(archive, name)).size));
    const shown = (r: SearchResponse) => r.results.map((x) => ({ id: x.id, snippets: x.matchedSnippets, turns: x.snippetTurnIds }));
    const search = { limit: 10, mode: 'lexical' } as const;
    const ours = shown(await library.searchAll('test', search));
    assert.ok(ours.some((r) => r.snippets.length > 0));
    assert.deepEqual(ours, shown(await reference.searchAll('test', search)), logger.lines.join('\n'));
    assert.ok(
      logger.lines.some((l) => l.includes('unreadable')),
      'the damage was found',
    );
    const context = { limit: 10, threshold: 0, mode: 'lexical' } as const;
    for (const name of readdirSync(archive)) writeFileSync(join(archive, name), Buffer.alloc(statSync(join(archive, name)).size));
    assert.deepEqual(
      (await library.searchContextAll('error handling', context)).results,
      (await reference.searchContextAll('error handling', context)).results,
    );
  } finally {
    await library.close();
    await reference.close();
  }
});
