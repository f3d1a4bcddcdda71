/**
 * `npm run bench:files [-- --size 10000]`: the file index on bench:real's corpus (its data folder, as bench:machine
 * uses it): what it adds to the snapshot and to reading the transcripts, what building it on the first question costs,
 * and `file_history` answer times for touched files, with and without `lines`. In process: the engine answers the same
 * call over its socket.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openCore } from '../src/core/library/open.js';
import { MemoryLogger } from '../src/core/log.js';
import { defaultRoots, splitRoots } from '../src/core/ingest/sources/registry.js';
import { decodeTouch, fileTouches } from '../src/core/files/touches.js';
import { sessionDecisions } from '../src/core/ingest/decisions.js';
import { ROOT } from '../test/helpers.js';
import type { RealCorpus } from './real-corpus.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' } } });
const dir = join(ROOT, 'bench', '.out', 'real', values.size!);
if (!existsSync(join(dir, 'corpus.json'))) throw new Error(`no corpus of ${values.size} sessions: run npm run bench:real -- --sizes ${values.size} first`);
const c = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as RealCorpus;
const data = join(dir, 'data');
const roots = splitRoots(defaultRoots({ HOME: c.home })).machine;
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

const snapshotExisted = existsSync(join(data, 'index', 'snapshot.bin'));
let started = performance.now();
const library = openCore({ roots, logger: new MemoryLogger(), dataDir: data, env: { HOME: c.home } });
await library.load();
const loadMs = performance.now() - started;
await library.saveSnapshot();
const snapshot = join(data, 'index', 'snapshot.bin');
const snapshotBytes = existsSync(snapshot) ? statSync(snapshot).size : NaN;
const sessions = [...library.sessions.values()];
const filesBytes = sessions.reduce((n, s) => n + (s.files ? Buffer.byteLength(JSON.stringify(s.files)) + 9 : 0), 0);
const touches = sessions.flatMap((s) => (s.files ?? []).map((f) => ({ session: s, touch: decodeTouch(f)! })));

// what finding the touches costs while reading: timed again here over a sample's turns (read first, not timed)
const sample = sessions.filter((_, i) => i % Math.max(1, Math.floor(sessions.length / 500)) === 0);
const turns = sample.map((s) => ({ turns: library.turns.all(s), project: s.project }));
started = performance.now();
for (const t of turns) fileTouches(t.turns, t.project);
const extractMs = ((performance.now() - started) / sample.length) * sessions.length;
started = performance.now();
for (const t of turns) sessionDecisions(t.turns);
const decisionsMs = ((performance.now() - started) / sample.length) * sessions.length;
// the share of reading is of a cold load (no snapshot); a warm one reads nothing
const cold = !snapshotExisted;

started = performance.now();
const files = library.fileHistory({ path: touches[0]?.touch.path ?? '/none' });
const firstMs = performance.now() - started;
const paths = [...new Set(touches.map((t) => t.touch.path))];
const asked = paths.filter((_, i) => i % Math.max(1, Math.floor(paths.length / 300)) === 0);
const plain: number[] = [];
const withLines: number[] = [];
const text = Array.from({ length: 400 }, (_, i) => `  const line${i} = compute(${i});`).join('\n');
for (const path of asked) {
  let t = performance.now();
  library.fileHistory({ path });
  plain.push(performance.now() - t);
  t = performance.now();
  library.fileHistory({ path, lines: '1-400', text });
  withLines.push(performance.now() - t);
}
await library.close();
console.log(`${sessions.length} sessions: ${touches.length} touches of ${paths.length} files (first answer ${files.total} sessions)`);
console.log(
  `| sessions | touches | files | Session.files in snapshot | finding touches, decisions while reading (${cold ? 'share of this cold load' : 'this load was warm'}: ${(loadMs / 1000).toFixed(0)} s) | file index built on first ask | file_history p50 / p95 | with lines 1-400 p50 / p95 |`,
);
console.log('|---|---|---|---|---|---|---|---|');
console.log(
  `| ${sessions.length} | ${touches.length} | ${paths.length} | ${(filesBytes / 1048576).toFixed(1)} MB (${((100 * filesBytes) / snapshotBytes).toFixed(1)}% of ${(snapshotBytes / 1048576).toFixed(0)} MB) | ${(extractMs / 1000).toFixed(2)} s, ${(decisionsMs / 1000).toFixed(2)} s${cold ? ` (${((100 * (extractMs + decisionsMs)) / loadMs).toFixed(1)}%)` : ''} | ${firstMs.toFixed(0)} ms | ${pct(plain, 0.5).toFixed(2)} / ${pct(plain, 0.95).toFixed(2)} ms | ${pct(withLines, 0.5).toFixed(2)} / ${pct(withLines, 0.95).toFixed(2)} ms |`,
);
