/**
 * A literal (a flag, an identifier, a path) looked for in a session's archive line without parsing it: the answer is
 * the one the parsed turns give, for any turns and any literal.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { literalMatcher } from '../../src/core/index/snippets.js';
import { jsonText } from '../../src/core/index/snippet-turns.js';
import { isPrompt, ROLES, TURN_KINDS, type ParsedSession, type Turn } from '../../src/core/model.js';
import { encodeSessionLine } from '../../src/core/store/archive-line.js';
import { rawTurnsHold, readRawSession } from '../../src/core/store/session-layout.js';
import { tempDir } from '../helpers.js';

// literals of what people search for, and turns made of their pieces: in other cases, inside longer words, escaped by
// JSON (quotes, backslashes, newlines), beside text that is not ASCII
const literals = ['--cache', 'send_with_retries', 'aider/io.py', 'C:\\tools\\ld.exe', 'say "hi"', 'naïve_flag', 'Ab'];
const piece = fc.oneof(
  fc.constantFrom(...literals),
  fc.constantFrom(...literals).map((l) => l.toUpperCase()),
  fc.constantFrom(...literals).map((l) => l.slice(0, Math.ceil(l.length / 2))),
  fc.constantFrom(' ', '\n', '-', 'x', 'é', '日', '"', '\\', '--cache-dir', 'simple_send_with_retries'),
);
const turn = fc.record({
  role: fc.constantFrom(...ROLES),
  kind: fc.constantFrom(...TURN_KINDS),
  text: fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
});

test('a literal is held by an archived session exactly when one of its parsed turns holds it (prompts alone, or every turn)', () => {
  const dir = tempDir();
  let n = 0;
  fc.assert(
    fc.property(fc.array(turn, { maxLength: 12 }), fc.constantFrom(...literals), fc.boolean(), (turns, literal, promptsOnly) => {
      const nativeId = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
      const session = {
        id: `codex:${nativeId}`,
        source: 'codex',
        nativeId,
        topic: 'a session',
        filename: nativeId,
        file: `/home/dev/.codex/sessions/${nativeId}.jsonl`,
        size: 100,
        created: '2026-11-30T10:00:00.000Z',
        updated: '2026-11-30T11:00:00.000Z',
        turns: turns.map((t, i) => ({ id: `codex:${nativeId}#${i}`, ...t }) as Turn),
      } as unknown as ParsedSession;
      // the session's line after the entry's first line, as an archive entry holds it
      const first = Buffer.from('first line\n');
      const line = encodeSessionLine(session);
      const entry = join(dir, `${nativeId}.jsonl`);
      writeFileSync(entry, Buffer.concat([first, line]));
      const raw = readRawSession(entry, [first.length, line.length], session.id);
      assert.ok(raw, 'the line opens with its layout');
      try {
        const matcher = literalMatcher(literal);
        const expected = session.turns.some((t) => (!promptsOnly || isPrompt(t)) && matcher.test(t.text));
        assert.equal(rawTurnsHold(raw, jsonText(literal), matcher, promptsOnly), expected);
      } finally {
        raw.close();
      }
    }),
    { numRuns: 1500 },
  );
});
