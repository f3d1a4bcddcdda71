/**
 * Long lines are read, not dropped: a JSON line past the line limit streams through with its strings cut short and
 * its structure kept, so the prompt in it is found and the first page of its huge output indexed; what still cannot be
 * read is counted on the session and said by get_session and the CLI.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { KEPT_STRING_BYTES, LongLine } from '../../src/core/ingest/sources/long-line.js';
import { readLines } from '../../src/core/ingest/sources/line-files.js';
import { renderGet } from '../../src/cli/render.js';
import { tempDir } from '../helpers.js';

const ID = '44444444-4444-4444-8444-444444444444';
const at = (s: number) => new Date(Date.UTC(2026, 5, 1, 9, 0, s)).toISOString();

test('property: a long line cut short still parses, with the same structure, every string kept whole or as its start', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 40 }), (value, keep, chunk) => {
      const bytes = Buffer.from(JSON.stringify({ v: value, pad: 'é😀\\"'.repeat(20) }), 'utf8');
      const long = new LongLine(keep);
      for (let i = 0; i < bytes.length; i += chunk) long.push(bytes.subarray(i, i + chunk));
      const parsed: unknown = JSON.parse(long.finish()!);
      const same = (a: unknown, b: unknown): void => {
        if (typeof a === 'string') {
          assert.equal(typeof b, 'string');
          const kept = b as string;
          if (kept !== a) {
            const [start] = kept.split(' … [');
            assert.ok(a.startsWith(start) && Buffer.byteLength(JSON.stringify(start)) - 2 >= keep && kept.includes('more bytes not kept'), `${a} / ${kept}`);
          }
        } else if (Array.isArray(a)) {
          assert.ok(Array.isArray(b) && b.length === a.length);
          a.forEach((x, i) => same(x, (b as unknown[])[i]));
        } else if (a && typeof a === 'object') {
          assert.deepEqual(Object.keys(b as object), Object.keys(a));
          for (const k of Object.keys(a)) same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
        } else assert.equal(JSON.stringify(b), JSON.stringify(a)); // as JSON carries it (-0 is written 0)
      };
      same({ v: value, pad: 'é😀\\"'.repeat(20) }, parsed);
    }),
    { numRuns: 300 },
  );
});

test('a Claude Code line of 50 MB (one huge tool output beside a prompt) is read: the prompt is found, the first page of the output too', async () => {
  const root = tempDir();
  mkdirSync(join(root, 'p'), { recursive: true });
  const filler = 'compiling module graph chunk ok\n';
  const huge = `${filler.repeat(3000)} quasarmarker ${filler.repeat(Math.ceil((50 * 1024 * 1024) / filler.length))} nebulamarker done\n`;
  const records = [
    { type: 'user', uuid: 'u0', sessionId: ID, cwd: '/w', timestamp: at(0), message: { role: 'user', content: 'run the full build' } },
    {
      type: 'assistant',
      uuid: 'a0',
      sessionId: ID,
      cwd: '/w',
      timestamp: at(1),
      message: { id: 'm0', role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Bash', input: { command: 'make all' } }] },
    },
    {
      type: 'user',
      uuid: 'u1',
      sessionId: ID,
      cwd: '/w',
      timestamp: at(2),
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't0', content: huge },
          { type: 'text', text: 'now explain why the zebracornmarker step is slow' },
        ],
      },
    },
  ];
  const lines = records.map((r) => JSON.stringify(r));
  assert.ok(Buffer.byteLength(lines[2]) > 50 * 1024 * 1024);
  writeFileSync(join(root, 'p', `${ID}.jsonl`), `${lines.join('\n')}\n`);
  const logger = new MemoryLogger();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger, env: {}, dataDir: tempDir() });
  await library.load();
  assert.equal(library.search('zebracornmarker').results[0]?.id, `claude-code:${ID}`, 'the prompt in the long line is found');
  assert.equal(library.search('quasarmarker').results[0]?.id, `claude-code:${ID}`, 'and the first page of the output');
  assert.equal(library.search('nebulamarker').count, 0, 'what lay past the kept start is not there');
  const output = library.turns.all(library.sessions.get(`claude-code:${ID}`)!).find((t) => t.role === 'tool' && t.text.includes('quasarmarker'))!;
  assert.ok(Buffer.byteLength(output.text) < KEPT_STRING_BYTES + 200, 'kept short');
  assert.match(output.text, /more bytes not kept: a line too long to keep whole\]$/);
  assert.ok(logger.lines.some((l) => /:3: line of \d+ bytes read with 1 long text\(s\) cut/.test(l)));
  assert.equal((await library.get(`claude-code:${ID}`, { format: 'json' })).session.unreadLines, undefined, 'nothing left unread');
  await library.close();
});

test('lines that cannot be read are counted on the session: get_session and the CLI say how many and why', async () => {
  const root = tempDir();
  mkdirSync(join(root, 'p'), { recursive: true });
  const good = (i: number, text: string) =>
    JSON.stringify({ type: 'user', uuid: `u${i}`, sessionId: ID, cwd: '/w', timestamp: at(i), message: { role: 'user', content: text } });
  writeFileSync(
    join(root, 'p', `${ID}.jsonl`),
    `${good(0, 'first prompt about caching')}\n{"type":"user","message":\n${good(2, 'second prompt about caching')}\n\u0000\u0001garbage\n`,
  );
  const data = tempDir();
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {}, dataDir: data });
  await library.load();
  const got = await library.get(`claude-code:${ID}`, { format: 'json' });
  assert.equal(got.session.unreadLines?.count, 2);
  assert.match(got.session.unreadLines!.reasons[0], /^2: skipped, /);
  assert.equal(got.session.messages.length, 2, 'the rest of the session is there');
  assert.match(renderGet(got), /2 lines of the transcript could not be read \(2: skipped, .*--verbose logs each/);
  await library.close();
  // the count outlives the process: it is stored with the session (snapshot and archive)
  const again = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {}, dataDir: data });
  await again.load();
  assert.equal((await again.get(`claude-code:${ID}`, { format: 'json' })).session.unreadLines?.count, 2);
  await again.close();
});

test('a transcript past its budget keeps the start of each later long line texts: reading it holds a bounded amount whatever its size', async () => {
  const file = join(tempDir(), 'big.jsonl');
  const line = (i: number) =>
    JSON.stringify({ type: 'user', n: i, message: { content: [{ type: 'tool_result', content: `${i} ${'x'.repeat(100_000)} end${i}` }] } });
  writeFileSync(file, `${Array.from({ length: 10 }, (_, i) => line(i)).join('\n')}\n`);
  const logger = new MemoryLogger();
  const seen: { n: number; length: number; end: boolean }[] = [];
  await readLines(
    file,
    (text) => {
      const r = JSON.parse(text) as { n: number; message: { content: { content: string }[] } };
      const content = r.message.content[0].content;
      seen.push({ n: r.n, length: content.length, end: content.includes(`end${r.n}`) });
    },
    { logger, budgetBytes: 300_000 },
  );
  assert.deepEqual(
    seen.map((s) => s.n),
    [...Array(10).keys()],
    'every line read, in order',
  );
  for (const s of seen.slice(0, 3)) assert.ok(s.end && s.length > 100_000, 'within the budget: whole');
  for (const s of seen.slice(3)) assert.ok(!s.end && s.length < 4096 + 100, `past it: the start kept (${s.length})`);
  assert.ok(
    logger.lines.some((l) => /over 300000 bytes: the texts of 7 later long line\(s\) were kept to their first 4096 bytes/.test(l)),
    logger.lines.join('\n'),
  );
});
