/**
 * The archive's session line, as a property: for any session (texts of any characters, one to four bytes each in
 * UTF-8, quotes, escapes, line separators; no turns or many), the line written is one line, its checksum is the
 * CRC-32 of what follows the first tab, it reads back whole as the session, and each turn's layout entry points at
 * exactly that turn's JSON with its own checksum, role and kind, and text length: what reading a single turn relies on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { decodeLine, encodeSessionLine, LAYOUT_FIELDS, lineHead } from '../../src/core/store/archive-line.js';
import { ROLES, TURN_KINDS, turnFlags, type ParsedSession, type Turn } from '../../src/core/model.js';

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '日', '😀', '"', '\\', '\n', '\u2028', '\u0000', ' ', 'ß'), maxLength: 200 }),
  fc.constant('x'.repeat(5000)),
);

const turn = fc.record(
  {
    role: fc.constantFrom(...ROLES),
    kind: fc.constantFrom(...TURN_KINDS),
    text,
    timestamp: fc.constant('2026-11-30T10:00:00.000Z'),
    tool: fc.string({ maxLength: 10 }),
    written: fc.array(text, { maxLength: 2 }),
  },
  { requiredKeys: ['role', 'kind', 'text'] },
);

const session = fc.record({ topic: text, nativeId: fc.uuid(), turns: fc.array(turn, { maxLength: 12 }), deleted: fc.boolean() }).map(
  ({ topic, nativeId, turns, deleted }): ParsedSession =>
    ({
      id: `codex:${nativeId}`,
      source: 'codex',
      nativeId,
      topic,
      filename: `rollout-${nativeId}`,
      file: `/home/dev/.codex/sessions/rollout-${nativeId}.jsonl`,
      size: 100,
      created: '2026-11-30T10:00:00.000Z',
      updated: '2026-11-30T11:00:00.000Z',
      ...(deleted ? { sourceDeleted: true } : {}),
      turns: turns.map((t, i) => ({ id: `codex:${nativeId}#${i}`, ...t }) as Turn),
    }) as unknown as ParsedSession,
);

test('a session line reads back whole, and each turn where its layout says, for any text', () => {
  fc.assert(
    fc.property(session, (s) => {
      const line = encodeSessionLine(s);
      assert.equal(line[line.length - 1], 0x0a, 'the line ends with a newline');
      assert.equal(line.indexOf(0x0a), line.length - 1, 'and holds no other');
      const whole = line.subarray(0, -1);
      assert.equal(whole.toString('latin1', 0, 8), crc32(whole.subarray(9)).toString(16).padStart(8, '0'));

      // (a session's `sourceDeleted` is not written: whether its transcript is gone is checked when the archive is read)
      assert.deepEqual(decodeLine(line, [0, line.length - 1]), JSON.parse(JSON.stringify({ ...s, sourceDeleted: undefined })));

      const head = lineHead(line, true, s.id);
      assert.ok(head && head !== 'more', 'the layout is read from the line');
      assert.equal(head.layout.length, s.turns.length * LAYOUT_FIELDS);
      s.turns.forEach((t, i) => {
        const [offset, length, flags, checksum, textLength] = head.layout.subarray(i * LAYOUT_FIELDS, (i + 1) * LAYOUT_FIELDS);
        const bytes = line.subarray(head.json + offset, head.json + offset + length);
        assert.equal(bytes.toString('utf8'), JSON.stringify(t));
        assert.equal(checksum, crc32(bytes));
        assert.equal(flags, turnFlags(t));
        assert.equal(textLength, t.text.length);
      });
    }),
    { numRuns: 300 },
  );
});
