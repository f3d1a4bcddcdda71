/**
 * `npm run bench:live [-- --sizes 1000,10000,50000]`: the engine over real files on disk, beside SQLite FTS5 fed from
 * the same files in the same process. Both read the transcripts with the same adapter (parse + mask), then:
 * ours indexes, archives and writes its snapshot; FTS5 inserts into an on-disk database and commits.
 *
 * Per size: cold build (s, MB of raw transcript per second), warm start (a new process state: to the first answered
 * query, and to fully caught up), incremental latency (append a turn, time until a search finds it; 200 appends;
 * ours through the file watcher, FTS5 re-reading the file and replacing its rows), memory (peak RSS of our cold build,
 * and what a warm library holds: JS heap plus array buffers, after garbage collection), sizes on disk (our snapshot and archive, FTS5's database).
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openCore } from '../src/core/library/open.js';
import { LiveUpdates } from '../src/core/ingest/live.js';
import { silentLogger } from '../src/core/log.js';
import { Persistence } from '../src/core/store/persistence.js';
import { ParsedFiles } from '../src/core/ingest/sources/line-files.js';
import { claudeCodeSource } from '../src/core/ingest/sources/claude-code.js';
import type { ParsedSession } from '../src/core/model.js';
import { generateCorpus, type BenchDoc } from './corpus.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000' }, appends: { type: 'string', default: '200' } } });
const MB = 1024 * 1024;
const mb = (n: number): string => (n / MB).toFixed(0);
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

function uuid(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}

/** Each generated session as a Claude Code transcript: prompts and replies as records, tool output as tool results. */
function writeTranscripts(docs: BenchDoc[], root: string): { bytes: number; files: string[] } {
  let bytes = 0;
  const files: string[] = [];
  for (const d of docs) {
    const dir = join(root, `project-${d.id % 50}`);
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [JSON.stringify({ type: 'custom-title', customTitle: d.topic, sessionId: uuid(d.id) })];
    let n = 0;
    const rec = (type: string, message: object): void => {
      lines.push(JSON.stringify({ type, uuid: `${d.id}-${n++}`, sessionId: uuid(d.id), cwd: `/work/p${d.id % 50}`, timestamp: d.date, message }));
    };
    d.content.forEach((text, i) =>
      i % 2 === 0
        ? rec('user', { role: 'user', content: text })
        : rec('assistant', { id: `m${d.id}-${i}`, role: 'assistant', content: [{ type: 'text', text }] }),
    );
    for (const text of d.messages) rec('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: text }] });
    const body = `${lines.join('\n')}\n`;
    bytes += Buffer.byteLength(body);
    const file = join(dir, `${uuid(d.id)}.jsonl`);
    writeFileSync(file, body);
    files.push(file);
  }
  return { bytes, files };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T; peakRss: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = performance.now();
  const value = await work();
  clearInterval(sampler);
  return { ms: performance.now() - t, value, peakRss: Math.max(peak, process.memoryUsage().rss) };
}

const pct = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];

/** FTS5 the way SQLite-based tools index transcripts: one row per session, the same three fields, on disk. */
class Fts5FromFiles {
  /** Parsed records kept between live reads, as our library keeps its own. */
  private readonly parsed = new ParsedFiles();
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly query: Database.Statement;

  constructor(readonly path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(id UNINDEXED, file UNINDEXED, topic, content, messages, tokenize='unicode61')");
    this.insert = this.db.prepare('INSERT INTO docs(id, file, topic, content, messages) VALUES (?, ?, ?, ?, ?)');
    this.remove = this.db.prepare('DELETE FROM docs WHERE file = ?');
    this.query = this.db.prepare('SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 0, 3.0, 2.0, 1.0) LIMIT 10');
  }

  private rows(file: string, sessions: ParsedSession[]): void {
    for (const s of sessions) {
      const content = s.turns.filter((t) => t.kind === 'conversation').map((t) => t.text);
      const messages = s.turns.filter((t) => t.kind !== 'conversation').map((t) => t.text);
      this.insert.run(s.id, file, s.topic, content.join('\n'), messages.join('\n'));
    }
  }

  async build(files: string[], root: string): Promise<void> {
    const ctx = { logger: silentLogger, env: {} };
    const batch: { file: string; sessions: ParsedSession[] }[] = [];
    const flush = this.db.transaction(() => {
      for (const b of batch) this.rows(b.file, b.sessions);
    });
    for (const file of files) {
      batch.push({ file, sessions: await claudeCodeSource.readFile(file, root, ctx) });
      if (batch.length >= 500) {
        flush();
        batch.length = 0;
      }
    }
    flush();
  }

  async update(file: string, root: string): Promise<void> {
    const sessions = await claudeCodeSource.readFile(file, root, { logger: silentLogger, env: {}, live: this.parsed });
    this.db.transaction(() => {
      this.remove.run(file);
      this.rows(file, sessions);
    })();
  }

  count(word: string): number {
    return this.query.all(`"${word}"`).length;
  }

  close(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }
}

console.log(
  '| sessions | raw MB | cold s ours / FTS5 (MB/s ours) | cold ÷ FTS5 | warm: first answer / caught up s | warm ÷ cold | append → found p50 / p95 ms ours | FTS5 | peak RSS cold MB | warm library holds MB | snapshot / archive / FTS5 db MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const size of values.sizes.split(',').map(Number)) {
  const work = mkdtempSync(join(tmpdir(), 'ss-bench-live-'));
  const root = join(work, 'projects');
  const data = join(work, 'data');
  const { bytes: raw, files } = writeTranscripts(generateCorpus(size).docs, root);
  const roots = [{ source: 'claude-code' as const, path: root }];
  gc();

  const cold = await timed(async () => {
    const lib = openCore({ roots, logger: silentLogger, env: {}, dataDir: data });
    await lib.load();
    return lib;
  });
  await cold.value.close();
  gc();

  const fts = new Fts5FromFiles(join(work, 'fts5.db'));
  const ftsCold = await timed(() => fts.build(files, root));
  gc();

  const heldBytes = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = heldBytes();
  const warmStart = performance.now();
  const library = openCore({ roots, logger: silentLogger, env: {}, dataDir: data, snapshotDelayMs: 60_000 });
  const loaded = library.load();
  await Promise.race([library.answerable, loaded]);
  library.search('session', { limit: 10 });
  const firstAnswer = performance.now() - warmStart;
  await loaded;
  const caughtUp = performance.now() - warmStart;
  gc();
  const held = heldBytes() - before;

  const live = new LiveUpdates(library, { logger: silentLogger, debounceMs: 10 });
  await live.start();
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < Number(values.appends); i++) {
    const id = Math.floor((i * 7919) % size);
    const word = `appendedword${i}x`;
    const file = join(root, `project-${id % 50}`, `${uuid(id)}.jsonl`);
    const t = performance.now();
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'user', uuid: `a${i}`, sessionId: uuid(id), cwd: '/w', timestamp: new Date().toISOString(), message: { role: 'user', content: word } })}\n`,
    );
    while (library.search(word).count === 0) {
      if (performance.now() - t > 10_000) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    ours.push(performance.now() - t);
    const f = performance.now();
    await fts.update(file, root);
    if (fts.count(word) !== 1) throw new Error('FTS5 did not find the appended word');
    theirs.push(performance.now() - f);
  }
  await live.close();
  ours.sort((a, b) => a - b);
  theirs.sort((a, b) => a - b);
  const archive = await library.archive!.size();
  await library.close();
  fts.close();
  const snapshot = statSync(Persistence.snapshotPath(data)).size;
  const ftsBytes = statSync(join(work, 'fts5.db')).size;
  console.log(
    `| ${size} | ${mb(raw)} | ${(cold.ms / 1000).toFixed(1)} / ${(ftsCold.ms / 1000).toFixed(1)} (${(raw / MB / (cold.ms / 1000)).toFixed(1)}) | ${(cold.ms / ftsCold.ms).toFixed(2)} | ${(firstAnswer / 1000).toFixed(2)} / ${(caughtUp / 1000).toFixed(2)} | ${(firstAnswer / cold.ms).toFixed(3)} | ${pct(ours, 0.5).toFixed(0)} / ${pct(ours, 0.95).toFixed(0)} | ${pct(theirs, 0.5).toFixed(0)} / ${pct(theirs, 0.95).toFixed(0)} | ${mb(cold.peakRss)} | ${mb(held)} | ${mb(snapshot)} / ${mb(archive.bytes)} / ${mb(ftsBytes)} |`,
  );
  rmSync(work, { recursive: true, force: true });
}
