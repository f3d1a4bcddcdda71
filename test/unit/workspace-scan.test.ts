/**
 * The workspace view reads a session's archive line once and parses only the turns where one of the query's needles
 * lies (store/scan-turns.ts). Properties, on the real transcripts of the sample archived: every turn the query's
 * matcher finds is among the turns marked, for any query drawn from the sessions' own words in any case; a turn read
 * from the line is the turn the store gives, its role and kind those of its layout (so the view grouped from the lines is
 * the view from the parsed turns: the same exchanges, no matching turn left out).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { ROOTS } from '../../bench/relevance/corpus.js';
import { openCore, type LibraryCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { Turn } from '../../src/core/model.js';
import { parseQuery } from '../../src/core/index/query.js';
import { matcherFor, matcherNeedles } from '../../src/core/index/snippets.js';
import { rawScanTurns, scanNeedles } from '../../src/core/store/scan-turns.js';
import type { RawSession } from '../../src/core/store/session-layout.js';
import { tempDir } from '../helpers.js';

let library: LibraryCore;
/** Every archived session's line, opened, and its turns as the store gives them. */
const lines: { id: string; raw: RawSession; turns: Turn[] }[] = [];
let words: string[] = [];
before(async () => {
  library = openCore({ roots: ROOTS.map((r) => ({ ...r })), dataDir: tempDir(), logger: new MemoryLogger(), env: {}, parseThreads: 0 });
  await library.load();
  for (const s of library.sessions.values()) {
    const raw = library.turns.raw(s);
    if (raw) lines.push({ id: s.id, raw, turns: [] });
  }
  for (const line of lines) line.turns = library.turns.all(library.sessions.get(line.id)!);
  const all: string[] = [];
  library.index.forEachTerm((t) => {
    if (/^[a-z][a-z0-9_]{2,14}$/.test(t)) all.push(t);
  });
  words = all.filter((_, i) => i % 5 === 0);
});
after(() => {
  for (const line of lines) line.raw.close();
  return library.close();
});

test('a turn read from its archive line is the turn the store gives, its role and kind those of its layout', () => {
  assert.ok(lines.length >= 20, `${lines.length} sessions archived with a layout`);
  for (const { id, raw, turns } of lines) {
    const scan = rawScanTurns(raw, id, undefined)!;
    assert.equal(scan.count, turns.length, id);
    turns.forEach((turn, i) => {
      assert.deepEqual(scan.turn(i), turn, `${id} #${i}`);
      assert.equal(scan.role(i), turn.role);
      assert.equal(scan.kind(i), turn.kind);
      assert.ok(scan.mayHold(i), 'with no needles every turn is read');
    });
  }
});

test('every turn the matcher finds is marked by the needles, for any query of the sessions’ words in any case', () => {
  let marked = 0;
  let turns = 0;
  const query = fc
    .tuple(fc.array(fc.integer({ min: 0, max: 1 << 30 }), { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer())
    .map(([picks, phrase, seed]) => {
      const chosen = picks.map((i) => words[i % words.length]).map((w, k) => ((seed >> k) & 1 ? w.toUpperCase() : w));
      return phrase && chosen.length > 1 ? `"${chosen.join(' ')}"` : chosen.join(' ');
    });
  fc.assert(
    fc.property(query, (q) => {
      const parsed = parseQuery(q);
      const matcher = matcherFor(parsed);
      const needles = scanNeedles(matcherNeedles(parsed));
      if (!matcher || !needles) return;
      for (const { id, raw, turns: all } of lines) {
        const scan = rawScanTurns(raw, id, needles)!;
        all.forEach((turn, i) => {
          matcher.lastIndex = 0;
          if (matcher.test(turn.text)) assert.ok(scan.mayHold(i), `${q}: ${id} #${i} holds a match but was not marked`);
          turns++;
          if (scan.mayHold(i)) marked++;
        });
      }
    }),
    { numRuns: 40 },
  );
  assert.ok(marked < turns / 4, `the needles leave most turns unread (${marked} of ${turns} marked)`);
});
