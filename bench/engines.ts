/** The engines compared, each behind the same three calls. Peers get the same fields and weights as ours. */
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { SearchIndex, type RankingParams } from '../src/core/index/engine.js';
import { tokenize } from '../src/core/index/tokenize.js';
import type { BenchDoc } from './corpus.js';

export interface Engine {
  name: string;
  build(docs: BenchDoc[]): void;
  /** Ids of the 10 best documents. */
  query(text: string): number[];
  /** Bytes of the index where the engine can tell (SQLite database size). */
  storedBytes?(): number;
  close?(): void;
}

export function ours(params?: RankingParams, name = 'session-search (BM25F index)'): Engine {
  let index = new SearchIndex();
  return {
    name,
    build(docs) {
      index = new SearchIndex(params);
      for (const d of docs) index.add(String(d.id), { topic: d.topic, content: d.content, messages: d.messages }, Date.parse(d.date));
      index.seal();
    },
    query(text) {
      return index.score(tokenize(text), { limit: 10 }).map((h) => +h.key);
    },
  };
}

export function miniSearch(): Engine {
  let ms: MiniSearch<{ id: number; topic: string; content: string; messages: string }>;
  return {
    name: 'MiniSearch 7.2 (BM25+)',
    build(docs) {
      ms = new MiniSearch({ fields: ['topic', 'content', 'messages'], idField: 'id' });
      for (const d of docs) ms.add({ id: d.id, topic: d.topic, content: d.content.join('\n'), messages: d.messages.join('\n') });
    },
    query(text) {
      return ms
        .search(text, { boost: { topic: 3, content: 2, messages: 1 } })
        .slice(0, 10)
        .map((r) => r.id as number);
    },
  };
}

export function fts5(): Engine {
  let db: Database.Database;
  let stmt: Database.Statement;
  return {
    name: 'SQLite FTS5 (bm25, better-sqlite3 12)',
    build(docs) {
      db = new Database(':memory:');
      db.exec("CREATE VIRTUAL TABLE docs USING fts5(topic, content, messages, tokenize='unicode61')");
      const insert = db.prepare('INSERT INTO docs(rowid, topic, content, messages) VALUES (?, ?, ?, ?)');
      db.transaction(() => {
        for (const d of docs) insert.run(d.id, d.topic, d.content.join('\n'), d.messages.join('\n'));
      })();
      stmt = db.prepare('SELECT rowid AS id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 3.0, 2.0, 1.0) LIMIT 10');
    },
    query(text) {
      const terms = tokenize(text).map((t) => `"${t}"`);
      if (!terms.length) return [];
      return (stmt.all(terms.join(' OR ')) as { id: number }[]).map((r) => r.id);
    },
    storedBytes() {
      const pages = db.pragma('page_count', { simple: true }) as number;
      const size = db.pragma('page_size', { simple: true }) as number;
      return pages * size;
    },
    close() {
      db.close();
    },
  };
}

/** What CodeArchitect does: read every session and count case-insensitive occurrences, topic ×3, content ×2, messages ×1. */
export function linearScan(): Engine {
  let docs: { id: number; topic: string; content: string; messages: string }[] = [];
  const count = (hay: string, needle: string): number => {
    let n = 0;
    for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
    return n;
  };
  return {
    name: 'linear scan (CodeArchitect-style)',
    build(input) {
      docs = input.map((d) => ({ id: d.id, topic: d.topic, content: d.content.join('\n'), messages: d.messages.join('\n') }));
    },
    query(text) {
      const terms = tokenize(text);
      const scored: { id: number; s: number }[] = [];
      for (const d of docs) {
        let s = 0;
        for (const t of terms) s += 3 * count(d.topic.toLowerCase(), t) + 2 * count(d.content.toLowerCase(), t) + count(d.messages.toLowerCase(), t);
        if (s > 0) scored.push({ id: d.id, s });
      }
      return scored
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((x) => x.id);
    },
  };
}
