/**
 * The peer of `npm run bench:real`, in a process of its own so its memory is measured apart from ours: SQLite FTS5
 * the way SQLite-based session tools use it. `build DB ROOTS_JSON` reads the transcripts with the same adapters as ours
 * (parse + mask), one row per session (topic, content = conversation, messages = tool calls, outputs, thinking), and
 * prints {buildMs, peakRssMb}. `serve DB` answers JSON lines {q} on stdin with the 10 best sessions by bm25 (the same
 * field weights as ours, 3/2/1) and snippet() for each hit (`snippets: false` leaves them out).
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { silentLogger } from '../src/core/log.js';
import type { ParsedSession, SourceId } from '../src/core/model.js';
import { sourceById } from '../src/core/ingest/sources/registry.js';
import { walkFiles } from '../src/core/ingest/walk.js';

export function peakRssMb(pid: number | string = 'self'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** FTS5 query text: the words, any of which may match (OR), each quoted so punctuation cannot break the syntax. */
export function ftsQuery(q: string): string {
  return q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(' OR ');
}

async function build(path: string, roots: { source: SourceId; path: string }[]): Promise<void> {
  const started = performance.now();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, topic, content, messages, tokenize='unicode61')");
  const insert = db.prepare('INSERT INTO docs(id, topic, content, messages) VALUES (?, ?, ?, ?)');
  const ctx = { logger: silentLogger, env: {} };
  for (const root of roots) {
    const adapter = sourceById(root.source)!;
    const files = await walkFiles(root.path, { logger: silentLogger, accept: (f) => adapter.accepts(f, root.path) });
    let batch: ParsedSession[] = [];
    const flush = db.transaction((sessions: ParsedSession[]) => {
      for (const s of sessions) {
        const content = s.turns.filter((t) => t.kind === 'conversation').map((t) => t.text);
        const messages = s.turns.filter((t) => t.kind !== 'conversation').map((t) => t.text);
        insert.run(s.id, s.topic, content.join('\n'), messages.join('\n'));
      }
    });
    for (const file of files) {
      batch.push(...(await adapter.readFile(file, root.path, ctx).catch(() => [])));
      if (batch.length >= 200) {
        flush(batch);
        batch = [];
      }
    }
    flush(batch);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  process.stdout.write(`${JSON.stringify({ buildMs: performance.now() - started, peakRssMb: peakRssMb() })}\n`);
}

function serve(path: string): void {
  const db = new Database(path, { readonly: true });
  const withSnippets = db.prepare(
    "SELECT id, snippet(docs, -1, '[', ']', '…', 32) AS snippet FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 3.0, 2.0, 1.0) LIMIT 10",
  );
  const without = db.prepare('SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 3.0, 2.0, 1.0) LIMIT 10');
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const { q, snippets, stats } = JSON.parse(line) as { q?: string; snippets?: boolean; stats?: boolean };
    if (stats) return void process.stdout.write(`${JSON.stringify({ peakRssMb: peakRssMb() })}\n`);
    const rows = (snippets === false ? without : withSnippets).all(ftsQuery(q ?? '')) as { id: string; snippet?: string }[];
    process.stdout.write(`${JSON.stringify({ ids: rows.map((r) => r.id), snippets: rows.map((r) => r.snippet ?? '') })}\n`);
  });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
}

const [mode, db, roots] = process.argv.slice(2);
if (mode === 'build') await build(db, JSON.parse(roots) as { source: SourceId; path: string }[]);
else if (mode === 'serve') serve(db);
