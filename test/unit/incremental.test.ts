/** Append-only transcripts are read from the last complete line on; anything but an append is read again whole. */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryLogger } from '../../src/core/log.js';
import type { ParsedSession, Session } from '../../src/core/model.js';
import { claudeCodeSource } from '../../src/core/ingest/sources/claude-code.js';
import { codexSource } from '../../src/core/ingest/sources/codex.js';
import { ParsedFiles } from '../../src/core/ingest/sources/line-files.js';
import type { SourceAdapter } from '../../src/core/ingest/sources/types.js';
import { tempDir } from '../helpers.js';

const ID = '22222222-3333-4444-8555-666666666666';
/** Long enough that the files below are over the 64 KB from which parsed records are kept. */
const PAD = ' and more of the same words'.repeat(60);
const line = (i: number, text = `turn number ${i} about topic${i}${PAD}`): string =>
  `${JSON.stringify({ type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, sessionId: ID, cwd: '/p', timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), message: i % 2 ? { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text }] } : { role: 'user', content: text } })}\n`;

/** The parsed records a library keeps between live reads (each library owns one). */
const kept = new ParsedFiles();
const lastIncrementalRead = (file: string) => kept.lastRead(file);

async function read(adapter: SourceAdapter, file: string, root: string, live: boolean, logger = new MemoryLogger()): Promise<ParsedSession[]> {
  return adapter.readFile(file, root, { logger, env: {}, live: live ? kept : undefined });
}

/** A live (incremental) read must equal a full read of the same bytes. */
async function same(adapter: SourceAdapter, file: string, root: string): Promise<ParsedSession[]> {
  const live = await read(adapter, file, root, true);
  assert.deepEqual(live, await read(adapter, file, root, false));
  return live;
}

test('an appended Claude Code turn is parsed from the last complete line; partial lines wait for their end', async () => {
  const root = tempDir();
  const file = join(root, `${ID}.jsonl`);
  writeFileSync(file, Array.from({ length: 50 }, (_, i) => line(i)).join(''));
  const first = await same(claudeCodeSource, file, root);
  assert.equal(lastIncrementalRead(file)?.resumedFrom, 0);
  const size = statSync(file).size;

  appendFileSync(file, line(50, 'appended after the first read'));
  const second = await same(claudeCodeSource, file, root);
  assert.equal(lastIncrementalRead(file)?.resumedFrom, size, 'the second read started where the first ended');
  assert.equal(second[0].turns.length, first[0].turns.length + 1);
  assert.ok(second[0].turns.at(-1)!.text.includes('appended after the first read'));

  const half = line(51, 'written in two pieces');
  appendFileSync(file, half.slice(0, 40));
  const logger = new MemoryLogger();
  const third = await read(claudeCodeSource, file, root, true, logger);
  assert.equal(third[0].turns.length, second[0].turns.length, 'an unfinished line is not a turn yet');
  assert.ok(
    logger.lines.some((l) => l.startsWith('info') && l.includes(':52: last line incomplete')),
    logger.lines.join('\n'),
  );
  assert.ok(!logger.lines.some((l) => l.startsWith('warn')), 'an unfinished line is not reported as damage');
  appendFileSync(file, half.slice(40));
  const fourth = await same(claudeCodeSource, file, root);
  assert.equal(fourth[0].turns.length, second[0].turns.length + 1);
  assert.ok(fourth[0].turns.at(-1)!.text.includes('written in two pieces'));
});

test('a truncated, rewritten or replaced transcript is read again from the beginning', async () => {
  const root = tempDir();
  const file = join(root, `${ID}.jsonl`);
  writeFileSync(file, Array.from({ length: 60 }, (_, i) => line(i)).join(''));
  await same(claudeCodeSource, file, root);

  truncateSync(file, statSync(file).size - line(59).length);
  const shorter = await same(claudeCodeSource, file, root);
  assert.equal(lastIncrementalRead(file)?.resumedFrom, 0);
  assert.ok(!shorter[0].turns.some((t) => t.text.includes('topic59')));

  // Same length, same start, different middle and end: the bytes before the resume point changed.
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace('topic58', 'topicXY') + line(30));
  const rewritten = await same(claudeCodeSource, file, root);
  assert.equal(lastIncrementalRead(file)?.resumedFrom, 0);
  assert.ok(rewritten[0].turns.some((t) => t.text.includes('topicXY')));

  // A different first line (a new session written over the old file).
  writeFileSync(file, line(0, 'a completely new first prompt') + text.split('\n').slice(1).join('\n') + line(40));
  const replaced = await same(claudeCodeSource, file, root);
  assert.equal(lastIncrementalRead(file)?.resumedFrom, 0);
  assert.ok(replaced[0].turns[0].text.includes('a completely new first prompt'));
});

test('small files are parsed again whole rather than kept', async () => {
  const root = tempDir();
  const file = join(root, `${ID}.jsonl`);
  writeFileSync(file, line(0, 'a short session'));
  await same(claudeCodeSource, file, root);
  assert.equal(lastIncrementalRead(file), undefined);
});

test('appending while a read is under way never loses or doubles a turn', async () => {
  const root = tempDir();
  const file = join(root, `${ID}.jsonl`);
  const padding = 'x'.repeat(2000);
  writeFileSync(file, Array.from({ length: 2000 }, (_, i) => line(i, `turn ${i} ${padding}`)).join(''));
  await read(claudeCodeSource, file, root, true);
  let i = 2000;
  const writer = setInterval(() => appendFileSync(file, line(i, `turn ${i++} during`)), 1);
  for (let k = 0; k < 5; k++) await read(claudeCodeSource, file, root, true);
  clearInterval(writer);
  const final = await same(claudeCodeSource, file, root);
  const numbers = final[0].turns.map((t) => Number(/turn (\d+)/.exec(t.text)?.[1]));
  assert.deepEqual(
    numbers,
    Array.from({ length: i }, (_, n) => n),
  );
});

test('Codex rollouts are read incrementally too', async () => {
  const root = tempDir();
  const file = join(root, 'rollout-2026-01-01T00-00-00-33333333-4444-4555-8666-777777777777.jsonl');
  const rec = (type: string, payload: object): string => `${JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type, payload })}\n`;
  writeFileSync(
    file,
    rec('session_meta', { id: '33333333-4444-4555-8666-777777777777', cwd: '/p' }) +
      rec('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `first codex prompt${PAD.repeat(50)}` }] }),
  );
  await same(codexSource, file, root);
  const size = statSync(file).size;
  appendFileSync(file, rec('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'codex answer appended' }] }));
  const after = await same(codexSource, file, root);
  assert.equal(lastIncrementalRead(file)?.resumedFrom, size);
  assert.ok(after[0].turns.some((t) => t.text.includes('codex answer appended')));
});

test('a Claude Code transcript read again alone keeps the title that a summary in another transcript gave it', async () => {
  const { corpusCopy, openLibrary } = await import('../damage.js');
  const root = corpusCopy();
  const { library } = await openLibrary(root, undefined);
  // Sessions whose title differs from what their own file alone gives: titled by another file's summary.
  const titled: Session[] = [];
  for (const s of library.sessions.values()) {
    const alone = (await read(claudeCodeSource, s.file, root, false)).find((a) => a.id === s.id);
    if (alone && alone.topic !== s.topic) titled.push(s);
  }
  assert.ok(titled.length > 0, 'the sample transcripts hold a title recorded in another file');
  for (const s of titled) {
    const topic = s.topic;
    appendFileSync(s.file, line(900, 'appended later, the title stays').replace(ID, s.nativeId));
    await library.reloadFile(s.file);
    const after = library.sessions.get(s.id)!;
    assert.equal(after.topic, topic, s.file);
    assert.equal(library.search('appended later the title stays').results[0]?.id, s.id);
  }
});

test('the states of many files come back in their order, whatever the thread that stated them; missing and unreadable ones as undefined', async () => {
  const { statMany } = await import('../../src/core/ingest/file-state.js');
  const dir = tempDir();
  // more files than one chunk stated in this thread, so chunks follow each other
  const paths = Array.from({ length: 700 }, (_, i) => join(dir, `f${i}.jsonl`));
  paths.forEach((p, i) => writeFileSync(p, 'x'.repeat(i)));
  const asked = [...paths, join(dir, 'missing.jsonl'), join(paths[0], 'under-a-file')];
  const infos = await statMany(asked, (info, i) => ({ size: info.size, path: asked[i] }));
  assert.equal(infos.length, asked.length);
  paths.forEach((p, i) => assert.deepEqual(infos[i], { size: i, path: p }));
  assert.equal(infos[700], undefined, 'a missing file');
  assert.equal(infos[701], undefined, 'a path through a file');
});
