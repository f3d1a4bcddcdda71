/**
 * bench:real's peer side: SQLite FTS5 built from the same files and asked the same queries from its own process
 * (bench/real-fts5.ts), over a pipe; and the timing and literal queries both sides share.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '../test/helpers.js';
import type { RealCorpus } from './real-corpus.js';

/** FTS5's serving process: JSON lines over a pipe. */
function ftsServer(db: string): Promise<{ ask: (msg: object) => Promise<{ ids: string[]; snippets: string[]; peakRssMb: number }>; close: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'real-fts5.ts'), 'serve', db], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = (): Promise<string> => new Promise((resolve) => waiting.push(resolve));
  return next().then(() => ({
    ask: (msg: object) => {
      const answer = next();
      child.stdin.write(`${JSON.stringify(msg)}\n`);
      return answer.then((l) => JSON.parse(l) as { ids: string[]; snippets: string[]; peakRssMb: number });
    },
    close: () => child.kill(),
  }));
}

export function ftsBuild(c: RealCorpus, db: string): Promise<{ buildMs: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'real-fts5.ts'), 'build', db, JSON.stringify(c.roots)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as { buildMs: number; peakRssMb: number }) : reject(new Error(`FTS5 build exited ${code}`)),
    );
  });
}

export async function timeQueries(ask: (q: string) => Promise<unknown>, queries: string[]): Promise<number[]> {
  const ms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await ask(q);
    ms.push(performance.now() - t);
  }
  return ms;
}

/** Flags and identifiers made of the 2-word queries' words (`--a-b`, `a_b`, `--a`): the literal path looks 100 deep by words. */
export const literalsOf = (c: RealCorpus): string[] =>
  c.queries[1].map((q, i) => {
    const [a, b] = q.split(' ');
    return [`--${a}-${b}`, `${a}_${b}`, `--${a}`][i % 3];
  });

/** FTS5's answers to the same queries as ours: a pass to warm its caches, then timed with and without snippets. */
export interface PeerSide {
  ftsMs: number[][];
  ftsPlainMs: number[][];
  literalFtsMs: number[];
  ftsHit1: number;
  ftsHit10: number;
  /** The known-item queries (rare remembered words mixed with common ones, decoys beside): FTS5 with snippets, ms. */
  knownMs: number[];
  servingRss: number;
}
export async function peerQueries(db: string, c: RealCorpus): Promise<PeerSide> {
  const peer = await ftsServer(db);
  try {
    await timeQueries((q) => peer.ask({ q }), c.queries.flat().slice(0, 30));
    const side: PeerSide = { ftsMs: [], ftsPlainMs: [], literalFtsMs: [], ftsHit1: 0, ftsHit10: 0, knownMs: [], servingRss: 0 };
    for (const qs of c.queries) {
      side.ftsMs.push(await timeQueries((q) => peer.ask({ q }), qs));
      side.ftsPlainMs.push(await timeQueries((q) => peer.ask({ q, snippets: false }), qs));
    }
    side.literalFtsMs = await timeQueries((q) => peer.ask({ q }), literalsOf(c));
    for (const k of c.known) {
      const t = performance.now();
      const p = await peer.ask({ q: k.query });
      side.knownMs.push(performance.now() - t);
      side.ftsHit1 += p.ids[0] === k.id ? 1 : 0;
      side.ftsHit10 += p.ids.includes(k.id) ? 1 : 0;
    }
    side.servingRss = (await peer.ask({ stats: true })).peakRssMb;
    return side;
  } finally {
    peer.close();
  }
}
