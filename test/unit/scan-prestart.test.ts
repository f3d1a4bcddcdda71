/**
 * The walk `session-search serve` starts before the engine's modules load (ingest/scan-prestart.ts): the library takes
 * it only for the walk it would have made itself, and whatever it takes, the scan is the one a walk of its roots gives.
 */
import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { transcriptTest } from '../../src/core/ingest/exclude.js';
import { scanRoots, type Scan } from '../../src/core/ingest/file-state.js';
import { scanAside } from '../../src/core/ingest/scan-aside.js';
import { prestartScan } from '../../src/core/ingest/scan-prestart.js';
import type { SourceRoot } from '../../src/core/ingest/sources/registry.js';
import { resolveConfiguredRoots } from '../../src/core/library/added-roots.js';
import { SCAN_ASIDE_MIN_BYTES } from '../../src/core/library/options.js';
import { MemoryLogger, silentLogger } from '../../src/core/log.js';
import { archiveFolder, entryFileName } from '../../src/core/store/entry-name.js';
import { snapshotFile } from '../../src/core/store/index-files.js';
import { CORPUS, tempDir } from '../helpers.js';

const CONFIGURED: SourceRoot[] = [
  { source: 'claude-code', path: join(CORPUS, 'claude-code') },
  { source: 'codex', path: join(CORPUS, 'codex') },
  { source: 'gemini', path: join(CORPUS, 'no-such-folder') },
  // a workspace's history: the engine reads it only for the window or command that registers it
  { source: 'specstory', path: join(CORPUS, 'specstory') },
];
const ADDED: SourceRoot = { source: 'gemini', path: join(CORPUS, 'gemini') };

/** A data folder whose snapshot is as large as a history whose roots the library walks on a thread. */
function largeHistory(): string {
  const data = tempDir();
  mkdirSync(join(data, 'index'), { recursive: true });
  writeFileSync(snapshotFile(data), '');
  truncateSync(snapshotFile(data), SCAN_ASIDE_MIN_BYTES);
  return data;
}

/** The roots as the engine's library resolves them: the machine's that exist. */
async function libraryRoots(data: string): Promise<SourceRoot[]> {
  const machine = CONFIGURED.filter((r) => r.source !== 'specstory');
  return (await resolveConfiguredRoots({ roots: machine, dataDir: data }, silentLogger)).found;
}

const shape = (scan: Scan): unknown =>
  scan.plan.map(({ root, files }) => ({ root: `${root.source} ${root.path}`, files: files.map((f) => `${f.file} ${f.size} ${f.mtimeMs}`) }));

async function scanned(roots: SourceRoot[], exclude: string[] | undefined, data: string): Promise<{ scan: Scan; took: boolean; lines: string[] }> {
  const logger = new MemoryLogger();
  const scan = await scanAside(roots, exclude, logger, archiveFolder(data));
  assert.deepEqual(shape(scan), shape(await scanRoots(roots, silentLogger, transcriptTest(exclude))), 'the scan a walk of the roots gives');
  assert.deepEqual([...scan.seen].sort(), [...(await scanRoots(roots, silentLogger, transcriptTest(exclude))).seen].sort());
  return { scan, took: logger.lines.some((l) => l.includes("walked from the engine's start")), lines: logger.lines };
}

test("the library takes the walk started with the engine when it walks the same roots, and then has each file's archive entry", async () => {
  const data = largeHistory();
  prestartScan({ roots: CONFIGURED, dataDir: data, archive: undefined, exclude: undefined });
  const roots = await libraryRoots(data);
  assert.equal(roots.length, 2, 'the missing root and the workspace history are not walked');
  const { scan, took, lines } = await scanned(roots, undefined, data);
  assert.ok(took, lines.join('\n'));
  // every file's entry, named as the archive names it, then stated (this data folder has no archive yet: none exists)
  const checks = await scan.entries;
  for (const file of scan.seen) {
    assert.equal(scan.entryName?.(file), entryFileName(file));
    assert.deepEqual({ ...checks?.get(file) }, { name: entryFileName(file) });
  }
  assert.equal(checks?.get(join(CORPUS, 'no-such-file.jsonl')), undefined);
  assert.deepEqual(await scan.unnamed, [], 'no archive folder yet: no entry in it');
  // taken once: the next walk (a rebuild) walks again
  assert.equal((await scanned(roots, undefined, data)).took, false);
});

test('roots added since the engine started (a command registered its folder) are walked on their own and joined in order', async () => {
  const data = largeHistory();
  prestartScan({ roots: CONFIGURED, dataDir: data, archive: undefined, exclude: undefined });
  const roots = await libraryRoots(data);
  const { took, lines } = await scanned([ADDED, ...roots], undefined, data);
  assert.ok(took && lines.some((l) => l.includes('and 1 added since')), lines.join('\n'));
});

test('a walk with other settings, of a root the library dropped, or for a small history is not taken: the library walks again', async () => {
  const roots = await libraryRoots(tempDir());
  const cases: [string, () => Promise<boolean>][] = [
    [
      'other exclude patterns',
      async () => {
        const data = largeHistory();
        prestartScan({ roots: CONFIGURED, dataDir: data, archive: undefined, exclude: ['**/nothing/**'] });
        return (await scanned(roots, ['**/codex/**'], data)).took;
      },
    ],
    [
      'no archive',
      async () => {
        const data = largeHistory();
        prestartScan({ roots: CONFIGURED, dataDir: data, archive: false, exclude: undefined });
        return (await scanned(roots, undefined, data)).took;
      },
    ],
    [
      'a root dropped',
      async () => {
        const data = largeHistory();
        prestartScan({ roots: CONFIGURED, dataDir: data, archive: undefined, exclude: undefined });
        return (await scanned(roots.slice(1), undefined, data)).took;
      },
    ],
    [
      'a small history',
      async () => {
        const data = largeHistory();
        truncateSync(snapshotFile(data), SCAN_ASIDE_MIN_BYTES - 1);
        prestartScan({ roots: CONFIGURED, dataDir: data, archive: undefined, exclude: undefined });
        return (await scanned(roots, undefined, data)).took;
      },
    ],
  ];
  for (const [what, took] of cases) assert.equal(await took(), false, what);
});

test("the walk lists the archive's entries none of its files names (sessions only the archive may hold), and states the others", async () => {
  const data = largeHistory();
  const roots = await libraryRoots(data);
  const walked = (await scanRoots(roots, silentLogger, transcriptTest(undefined))).plan.flatMap((p) => p.files.map((f) => f.file));
  mkdirSync(archiveFolder(data), { recursive: true });
  const stray = `${'0'.repeat(40)}.jsonl`;
  for (const name of [entryFileName(walked[0]), stray]) writeFileSync(join(archiveFolder(data), name), 'x\n');
  prestartScan({ roots: CONFIGURED, dataDir: data, archive: undefined, exclude: undefined });
  const { scan, took, lines } = await scanned(roots, undefined, data);
  assert.ok(took, lines.join('\n'));
  assert.deepEqual(await scan.unnamed, [stray]);
  const checks = await scan.entries;
  assert.deepEqual(checks?.get(walked[0])?.state?.[0], 2);
  assert.deepEqual({ ...checks?.get(walked[1]) }, { name: entryFileName(walked[1]) });
});
