/**
 * The snapshot header's compact layout (src/core/store/compact-header.ts) as a property: whatever the sessions, files
 * and index keys, what is written reads back exactly as it was given (through JSON, as the header is stored), and a
 * header with everything written out reads as it is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compactHeader } from '../../src/core/store/compact-header.js';
import { toColumns, type FileColumns, type SessionColumns } from '../../src/core/store/header-columns.js';
import { fullHeader } from '../helpers.js';
import type { ManifestEntry, StoredSession } from '../../src/core/store/snapshot.js';
import type { SourceId } from '../../src/core/model.js';

const SOURCES: SourceId[] = ['claude-code', 'codex', 'codearchitect', 'aider'];
const name = fc.stringMatching(/^[a-z0-9.-]{0,12}$/);
const dirs = fc.constantFrom('/home/u/.claude/projects/p', '/home/u/.codex/sessions/2026/10', 'C:\\Users\\u\\chats', '/r');

/** A header's sessions, files and keys: ids, names and topics derivable from other fields or not, files listed or not. */
const header = fc
  .record({
    files: fc.array(fc.record({ dir: dirs, base: name, ext: fc.constantFrom('.jsonl', '.md', '', '.a.b') }), { maxLength: 6 }),
    sessions: fc.array(
      fc.record({
        source: fc.constantFrom(...SOURCES),
        native: name,
        idOwn: fc.boolean(),
        fileOf: fc.nat(8),
        stem: fc.boolean(),
        promptSame: fc.boolean(),
        prompt: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
        archived: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
    idsShuffled: fc.boolean(),
    keys: fc.array(fc.oneof(fc.nat(10), fc.constant(null), fc.constant('gone:1')), { maxLength: 10 }),
  })
  .map(({ files: specs, sessions: specs2, idsShuffled, keys }) => {
    const paths = specs.map(({ dir, base, ext }) => `${dir}${dir.includes('\\') ? '\\' : '/'}${base}${ext}`);
    const sessions: StoredSession[] = specs2.map((s, i) => {
      const file = paths[s.fileOf] ?? `/elsewhere/${s.native}.jsonl`;
      const id = s.idOwn ? `own-${i}` : `${s.source}:${s.native}`;
      const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
      return {
        id,
        source: s.source,
        nativeId: s.native,
        topic: s.promptSame && s.prompt !== undefined ? s.prompt : `topic ${i}`,
        filename: s.stem ? base.replace(/\.[^.]*$/, '') || base : `folder-${i}`,
        file,
        size: i,
        created: '2026-10-30T22:23:59.097Z',
        updated: '2026-10-30T22:36:59.097Z',
        firstDay: '2026-10-30',
        lastDay: '2026-10-30',
        turnCount: 2,
        firstPrompt: s.prompt,
        ...(s.archived ? { archivedAt: { entry: 'a'.repeat(40) + '.jsonl', at: [0, 10] as [number, number] } } : { turnsAt: [i, 1] as [number, number] }),
      };
    });
    const files: ManifestEntry[] = paths.map((file, i) => {
      const ids = sessions.filter((s) => s.file === file).map((s) => s.id);
      return {
        file,
        source: 'claude-code',
        root: file.slice(0, file.lastIndexOf(file.includes('\\') ? '\\' : '/')),
        size: i,
        mtimeMs: 1793399839096.999,
        ino: i,
        ids: idsShuffled ? ids.reverse() : ids,
      };
    });
    return { sessions, files, keys: keys.map((k) => (typeof k === 'number' ? (sessions[k]?.id ?? `missing:${k}`) : k)) };
  });

/** A Codex session `codex:abc` of two turns, with what `fields` gives. */
function codexSession(fields: Pick<StoredSession, 'topic' | 'filename' | 'file'> & Partial<StoredSession>): StoredSession {
  return {
    id: 'codex:abc',
    source: 'codex',
    nativeId: 'abc',
    size: 1,
    created: '2026-10-30T22:23:59.097Z',
    updated: '2026-10-30T22:23:59.097Z',
    firstDay: '2026-10-30',
    lastDay: '2026-10-30',
    turnCount: 2,
    ...fields,
  };
}

/** As JSON stores it (fields holding undefined are not written). */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('a compact header reads back as the sessions, files and keys it was made of', () => {
  fc.assert(
    fc.property(header, ({ sessions, files, keys }) => {
      const written = stored(compactHeader(sessions, files, keys));
      assert.deepEqual(fullHeader(written), stored({ sessions, files, keys }));
    }),
    { numRuns: 500 },
  );
});

test('a compact header in columns (as a snapshot stores it) reads back as the sessions, files and keys it was made of', () => {
  fc.assert(
    fc.property(header, ({ sessions, files, keys }) => {
      const compact = compactHeader(sessions, files, keys);
      const written = stored({ ...compact, ...toColumns(compact) });
      assert.deepEqual(fullHeader(written), stored({ sessions, files, keys }));
    }),
    { numRuns: 500 },
  );
});

test("a compact header with its sessions' fields in rows (as a snapshot stores it) reads back as what it was made of, each session's fields in their order", () => {
  fc.assert(
    fc.property(header, ({ sessions, files, keys }) => {
      const compact = compactHeader(sessions, files, keys);
      const { rows, ...columns } = toColumns(compact, true);
      const written = stored({ ...compact, ...columns });
      const read = fullHeader(written, rows);
      assert.deepEqual(read, stored({ sessions, files, keys }));
      const inColumns = fullHeader(stored({ ...compact, ...toColumns(compact) }));
      read.sessions.forEach((s, i) => assert.deepEqual(Object.keys(s), Object.keys(inColumns.sessions[i])));
    }),
    { numRuns: 500 },
  );
});

test("sessions' rows that are missing or do not add up are refused, not read askew", () => {
  const session = codexSession({ topic: 't', filename: 'f', file: '/r/f.jsonl', turnsAt: [0, 1] });
  const entry: ManifestEntry = { file: '/r/f.jsonl', source: 'codex', root: '/r', size: 1, mtimeMs: 1, ino: 1, ids: ['codex:abc'], entry: [3, 4] };
  const compact = compactHeader([session], [entry], ['codex:abc']);
  const { rows, ...columns } = toColumns(compact, true);
  const good = stored({ ...compact, ...columns });
  assert.deepEqual(fullHeader(good, rows), stored({ sessions: [session], files: [entry], keys: ['codex:abc'] }));
  assert.throws(() => fullHeader(good), /name rows it does not hold/);
  assert.throws(() => fullHeader(good, { ...rows!, starts: rows!.starts.subarray(1) }), /rows do not add up/);
  assert.throws(() => fullHeader(good, { ...rows!, starts: Uint32Array.of(0, rows!.text.length + 1) }), /rows do not add up/);
  const shorter = structuredClone(good);
  (shorter.sessions as SessionColumns).rowFields!.pop();
  assert.throws(() => fullHeader(shorter, rows), /name fields askew/);
});

test("columns that do not hold one value per session or file, or lack a session's id, are refused, not read askew", () => {
  const session = codexSession({ topic: 't', filename: 'f', file: '/r/f.jsonl', turnsAt: [0, 1] });
  const entry: ManifestEntry = { file: '/r/f.jsonl', source: 'codex', root: '/r', size: 1, mtimeMs: 1, ino: 1, ids: ['codex:abc'], entry: [3, 4] };
  const compact = compactHeader([session], [entry], ['codex:abc']);
  const good = stored({ ...compact, ...toColumns(compact) });
  assert.deepEqual(fullHeader(good), stored({ sessions: [session], files: [entry], keys: ['codex:abc'] }));
  const broken = (edit: (h: typeof good) => void): typeof good => {
    const h = structuredClone(good);
    edit(h);
    return h;
  };
  const columns = (h: typeof good) => h.sessions as SessionColumns;
  for (const bad of [
    broken((h) => columns(h).fields.topic.push('x')),
    broken((h) => columns(h).at.pop()),
    broken((h) => columns(h).entry.push(null)),
    broken((h) => (columns(h).count = 2)),
    broken((h) => delete columns(h).fields.id),
    broken((h) => (h.files as FileColumns).entry.pop()),
    broken((h) => (h.files as FileColumns).ino.push(1)),
  ])
    assert.throws(() => fullHeader(bad), /does not hold one value|do not add up|have no id/);
});

test('a header with every field written out (the previous layout) reads as it is', () => {
  fc.assert(
    fc.property(header, ({ sessions, files, keys }) => {
      const full = stored({ sessions, files, keys });
      assert.deepEqual(fullHeader(stored(full)), full);
    }),
    { numRuns: 200 },
  );
});

test('what another field gives is left out: a native id in the id, a name in the path, a path and a root in the file list', () => {
  const file = '/home/u/.codex/sessions/2026/10/rollout-1.jsonl';
  const session = codexSession({ topic: 'fix the watcher', filename: 'rollout-1', file, firstPrompt: 'fix the watcher' });
  const entry: ManifestEntry = { file, source: 'codex', root: '/home/u/.codex/sessions', size: 1, mtimeMs: 1, ino: 1, ids: ['codex:abc'] };
  const compact = compactHeader([session], [entry], ['codex:abc', null]);
  const text = JSON.stringify(compact);
  for (const gone of ['"nativeId":null', '"filename":null', '"topic":null', '"file":0', '"root":0', '"ids":null'])
    assert.ok(text.includes(gone), `${gone} in ${text}`);
  assert.equal(text.split('rollout-1.jsonl"').length - 1, 1, `the path once: ${text}`);
  assert.deepEqual(compact.keys, [0, null]);
  assert.deepEqual(compact.roots, ['/home/u/.codex/sessions']);
});
