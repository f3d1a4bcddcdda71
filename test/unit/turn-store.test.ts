/**
 * Sessions are plain data: no property of a session reads the disk, and the library's turn store gives the turns a
 * session held when it was read. A session's turns read one at a time from its archive line are the turns it holds; a damaged turn is not shown and
 * its session is read again; search_context, which reads turns this way and ranks only the sessions it reads, answers
 * as it does from sessions held in memory and as it does when every match is ranked.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { LAYOUT_FIELDS } from '../../src/core/store/archive.js';
import { FIRST_PROMPT_CHARS, firstPrompt, turnCount, type Turn } from '../../src/core/model.js';
import { corpusRoots, tempDir } from '../helpers.js';

const QUESTIONS = ['test', 'error handling', 'readme', 'database migration', 'install', 'build failed', 'git commit message', 'api key', 'python'];

async function restoredAndInMemory(): Promise<{ restored: LibraryCore; memory: LibraryCore; logger: MemoryLogger }> {
  const data = tempDir();
  const writer = openCore({ roots: corpusRoots, logger: new MemoryLogger(), dataDir: data, env: {} });
  await writer.load();
  await writer.close();
  const logger = new MemoryLogger();
  const restored = openCore({ roots: corpusRoots, logger, dataDir: data, env: {} });
  await restored.load();
  const memory = openCore({ roots: corpusRoots, logger: new MemoryLogger(), env: {} });
  await memory.load();
  return { restored, memory, logger };
}

const shown = (t: Turn): unknown => [t.id, t.role, t.kind, t.text, t.timestamp ?? null];

test('every session read one turn at a time from disk holds the turns it holds in memory, whatever kinds are asked for', async () => {
  const { restored, memory } = await restoredAndInMemory();
  let onDisk = 0;
  for (const [id, session] of restored.sessions) {
    const held = memory.turns.all(memory.sessions.get(id)!);
    const reader = restored.turns.reader(session);
    try {
      onDisk += reader.onDisk ? 1 : 0;
      assert.equal(reader.count, held.length, id);
      for (let i = 0; i < held.length; i++) {
        assert.equal(reader.kind(i), held[i].kind, `${id} #${i}`);
        assert.equal(reader.role(i), held[i].role, `${id} #${i}`);
      }
      assert.equal(reader.get(held.length), undefined, `${id}: past the last turn`);
    } finally {
      reader.close();
    }
    for (const only of [undefined, (kind: string) => kind === 'conversation', (_: string, role: string) => role === 'user']) {
      const visited: unknown[] = [];
      restored.turns.forEach(session, (turn, i) => visited.push([i, shown(turn)]));
      const expected = held.flatMap((t, i) => (!only || only(t.kind, t.role) ? [[i, shown(t)]] : []));
      const filtered: unknown[] = [];
      restored.turns.forEach(session, (turn, i) => filtered.push([i, shown(turn)]), only);
      assert.deepEqual(filtered, expected, id);
      assert.equal(visited.length, held.length, id);
    }
  }
  assert.ok(onDisk > restored.sessions.size / 2, `${onDisk} of ${restored.sessions.size} sessions read from their archive line`);
  await Promise.all([restored.close(), memory.close()]);
});

test('sessions are plain data, read or restored: their turns come from the store, equal to those held in memory', async () => {
  const { restored, memory } = await restoredAndInMemory();
  const fresh = openCore({ roots: corpusRoots, logger: new MemoryLogger(), dataDir: tempDir(), env: {} });
  await fresh.load();
  for (const library of [restored, fresh]) {
    let stored = 0;
    for (const [id, session] of library.sessions) {
      const accessors = Object.entries(Object.getOwnPropertyDescriptors(session)).filter(([, d]) => d.get || d.set);
      assert.deepEqual(accessors, [], `${id}: no property is computed when touched`);
      if (session.turns === undefined) stored++;
      const held = memory.turns.all(memory.sessions.get(id)!);
      assert.deepEqual(library.turns.all(session).map(shown), held.map(shown), id);
      assert.equal(turnCount(session), held.length, id);
      assert.equal(firstPrompt(session), firstPrompt(memory.sessions.get(id)!)?.slice(0, FIRST_PROMPT_CHARS), id);
    }
    assert.ok(stored > library.sessions.size / 2, `${stored} of ${library.sessions.size} sessions keep their turns on disk`);
  }
  await Promise.all([restored.close(), memory.close(), fresh.close()]);
});

test('a damaged turn on disk is not shown: the turns before it are, the damage is logged and the session read again', async () => {
  const { restored, memory, logger } = await restoredAndInMemory();
  // a session not read yet, whose turns lie in its archive line (opening its raw line reads no turn into the cache)
  const target = [...restored.sessions.values()].find((s) => {
    const raw = restored.turns.raw(s);
    raw?.close();
    return raw && raw.layout.length / LAYOUT_FIELDS > 4;
  })!;
  const raw = restored.turns.raw(target)!;
  const damaged = 2;
  const offset = raw.layout[damaged * LAYOUT_FIELDS];
  raw.close();
  // the disk goes bad under the running library: one byte of the third turn's JSON changes, its checksum no longer matches
  const where = restored.turns.archivedPlace(target)!;
  const bytes = readFileSync(where.entry);
  const line = bytes.subarray(where.at[0], where.at[0] + where.at[1]);
  const at = line.indexOf('\t', 9) + 1 + offset + 2;
  line[at] = line[at] === 0x41 ? 0x42 : 0x41;
  writeFileSync(where.entry, bytes);
  const held = memory.turns.all(memory.sessions.get(target.id)!);
  const visited: Turn[] = [];
  restored.turns.forEach(target, (turn) => visited.push(turn));
  assert.deepEqual(visited.map(shown), held.slice(0, damaged).map(shown));
  assert.ok(
    logger.lines.some((l) => l.includes(target.id) && l.includes('unreadable')),
    `the damage is logged: ${logger.lines.filter((l) => l.includes(target.id)).join(' | ')}`,
  );
  await Promise.all([restored.close(), memory.close()]);
});

test('search_context answers from turns read on disk as from memory, and as when every matching session is ranked', async () => {
  const { restored, memory } = await restoredAndInMemory();
  const everySession = [...restored.sessions.keys()];
  for (const q of QUESTIONS) {
    for (const options of [
      { limit: 10, threshold: 0.7 },
      { limit: 30, threshold: 0.2, mode: 'lexical' as const },
      { limit: 10, threshold: 0.4, types: ['conversation' as const] },
    ]) {
      const what = `${q} ${JSON.stringify(options)}`;
      const a = restored.searchContext(q, options).results;
      assert.deepEqual(a, memory.searchContext(q, options).results, what);
      // naming every session ranks every match (a filter applied after the ranking): the answer is the same
      assert.deepEqual(a, restored.searchContext(q, { ...options, sessions: everySession }).results, `${what}, every session named`);
    }
  }
  await Promise.all([restored.close(), memory.close()]);
});
