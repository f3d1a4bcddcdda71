/**
 * The walking thread's reply in columns (scan-packed.ts): whatever the roots, files and archive entries, the main thread
 * unpacks the scan the walk made, and each file's entry check is the one the walk stated.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { FileState } from '../../src/core/ingest/file-state.js';
import { packEntryStates, packScan, unpackScan, type EntryState } from '../../src/core/ingest/scan-packed.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';

// (paths of any characters but NUL, which no path holds: separators, newlines, other scripts, none at all)
const path = fc
  .string({ unit: fc.oneof(fc.constantFrom('/', '\\', '\n', ' ', '.', 'é', '日', '😀'), fc.string({ minLength: 1, maxLength: 1 })), maxLength: 12 })
  .filter((p) => !p.includes('\0'));
const fileState: fc.Arbitrary<FileState> = fc
  .record({
    file: path,
    size: fc.nat({ max: 2 ** 40 }),
    mtimeMs: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 2e12 }),
    ino: fc.maxSafeNat(),
  })
  .map((f) => ({ ...f }));
const plan = fc.array(
  fc
    .record({
      root: fc.record({ source: fc.constantFrom('claude-code', 'codex', 'specstory'), path }).map((r) => ({ ...r }) as SourceRoot),
      files: fc.array(fileState, { maxLength: 6 }),
    })
    .map((r) => ({ ...r })),
  { maxLength: 4 },
);
// an entry per file: its name, and its state: not stated, none, or a size and a time
const entry = fc.tuple(
  path,
  fc.option(fc.tuple(fc.oneof(fc.constant(-1), fc.nat({ max: 2 ** 40 })), fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 2e12 })), {
    nil: undefined,
  }),
);

test('a packed scan unpacks to the walk that was packed, each file with the archive entry the walk named, then stated', async () => {
  await fc.assert(
    fc.asyncProperty(plan, fc.array(entry, { minLength: 1, maxLength: 8 }), fc.boolean(), async (walked, entries, withEntries) => {
      const files = [...new Set(walked.flatMap((r) => r.files.map((f) => f.file)))];
      const named = new Map(files.map((file, i) => [file, entries[i % entries.length]]));
      const walk = packScan(walked, withEntries ? (file) => named.get(file)![0] : undefined);
      const states = packEntryStates(walk, (file, name) => {
        assert.equal(name, named.get(file)![0], 'each file stated by its own entry name');
        return named.get(file)![1] as EntryState;
      });
      // (as they cross to the main thread)
      const scan = unpackScan(structuredClone(walk.packed), { entryStates: Promise.resolve(structuredClone(states)) });
      assert.deepEqual(scan.plan, walked);
      assert.deepEqual([...scan.seen].sort(), [...files].sort());
      if (!withEntries) return assert.deepEqual([scan.entryName, scan.entries], [undefined, undefined]);
      const checks = await scan.entries;
      for (const file of files) {
        const [name, state] = named.get(file)!;
        assert.equal(scan.entryName?.(file), name);
        const check = checks!.get(file);
        if (!state) assert.equal(check, undefined, 'not stated: stated by the main thread');
        else assert.deepEqual({ ...check }, state[0] < 0 ? { name } : { name, state });
      }
      assert.equal(scan.entryName?.('\0not walked'), undefined);
      assert.equal(checks!.get('\0not walked'), undefined);
    }),
    { numRuns: 300 },
  );
});

test("a reply that does not add up (its files, names and counts disagree) is refused, not read askew; entries' states that do not are not used", async () => {
  const { packed } = packScan([{ root: { source: 'codex', path: '/r' }, files: [{ file: '/r/a', size: 1, mtimeMs: 2, ino: 3 }] }], () => 'e');
  assert.throws(() => unpackScan({ ...packed, files: '/r/a\0/r/b' }), /does not add up/);
  assert.throws(() => unpackScan({ ...packed, roots: [{ root: packed.roots[0].root, count: 2 }] }), /does not add up/);
  assert.throws(() => unpackScan({ ...packed, entryNames: 'e\0f' }), /does not add up/);
  assert.equal(await unpackScan(packed, { entryStates: Promise.resolve(new Float64Array(4)) }).entries, undefined);
  assert.equal(await unpackScan(packed, { entryStates: Promise.resolve(undefined) }).entries, undefined);
});
