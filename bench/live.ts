/**
 * `npm run bench:live [-- --sizes 1000,10000]`: the engine over real files on disk. Cold load (parse, mask, index,
 * write the archive), warm start (unchanged files from the archive), live-update latency (append a turn, time until
 * a search finds it; 200 appends), and sizes on disk; SQLite FTS5's build on the same text for comparison.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SessionLibrary } from '../src/core/library.js';
import { LiveUpdates } from '../src/core/live.js';
import { silentLogger } from '../src/core/log.js';
import { generateCorpus, type BenchDoc } from './corpus.js';
import { fts5 } from './engines.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000' }, appends: { type: 'string', default: '200' } } });
const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);

function uuid(i: number): string {
  return `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
}

/** Each generated session as a Claude Code transcript: prompts and replies as records, tool output as tool results. */
function writeTranscripts(docs: BenchDoc[], root: string): number {
  let bytes = 0;
  for (const d of docs) {
    const dir = join(root, `project-${d.id % 50}`);
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [JSON.stringify({ type: 'custom-title', customTitle: d.topic, sessionId: uuid(d.id) })];
    let n = 0;
    const rec = (type: string, message: object): void => {
      lines.push(JSON.stringify({ type, uuid: `${d.id}-${n++}`, sessionId: uuid(d.id), cwd: `/work/p${d.id % 50}`, timestamp: d.date, message }));
    };
    d.content.forEach((text, i) => (i % 2 === 0 ? rec('user', { role: 'user', content: text }) : rec('assistant', { id: `m${d.id}-${i}`, role: 'assistant', content: [{ type: 'text', text }] })));
    for (const text of d.messages) rec('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: text }] });
    const body = `${lines.join('\n')}\n`;
    bytes += Buffer.byteLength(body);
    writeFileSync(join(dir, `${uuid(d.id)}.jsonl`), body);
  }
  return bytes;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T; peakRss: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = performance.now();
  const value = await work();
  clearInterval(sampler);
  return { ms: performance.now() - t, value, peakRss: Math.max(peak, process.memoryUsage().rss) };
}

console.log('| sessions | raw MB | cold load s (MB/s) | FTS5 build s | warm start s | warm ÷ cold | append → found p50 / p95 ms | peak RSS MB | archive MB |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const size of values.sizes.split(',').map(Number)) {
  const work = mkdtempSync(join(tmpdir(), 'ss-bench-live-'));
  const root = join(work, 'projects');
  const data = join(work, 'data');
  const corpus = generateCorpus(size);
  const raw = writeTranscripts(corpus.docs, root);
  const roots = [{ source: 'claude-code' as const, path: root }];
  const cold = await timed(async () => {
    const lib = new SessionLibrary({ roots, logger: silentLogger, env: {}, dataDir: data });
    await lib.load();
    return lib;
  });
  const ftsEngine = fts5();
  const fts = await timed(async () => ftsEngine.build(corpus.docs));
  ftsEngine.close?.();
  const warm = await timed(async () => {
    const lib = new SessionLibrary({ roots, logger: silentLogger, env: {}, dataDir: data });
    await lib.load();
    return lib;
  });
  const library = cold.value;
  const live = new LiveUpdates(library, { logger: silentLogger, debounceMs: 10 });
  await live.start();
  const latencies: number[] = [];
  for (let i = 0; i < Number(values.appends); i++) {
    const id = Math.floor((i * 7919) % size);
    const word = `appendedword${i}x`;
    const file = join(root, `project-${id % 50}`, `${uuid(id)}.jsonl`);
    const t = performance.now();
    appendFileSync(file, `${JSON.stringify({ type: 'user', uuid: `a${i}`, sessionId: uuid(id), cwd: '/w', timestamp: new Date().toISOString(), message: { role: 'user', content: word } })}\n`);
    while (library.search(word).count === 0) {
      if (performance.now() - t > 10_000) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    latencies.push(performance.now() - t);
  }
  await live.close();
  latencies.sort((a, b) => a - b);
  const archive = await library.archive!.size();
  const p = (q: number): string => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))].toFixed(0);
  console.log(
    `| ${size} | ${mb(raw)} | ${(cold.ms / 1000).toFixed(2)} (${(raw / 1024 / 1024 / (cold.ms / 1000)).toFixed(1)}) | ${(fts.ms / 1000).toFixed(2)} | ${(warm.ms / 1000).toFixed(2)} | ${(warm.ms / cold.ms).toFixed(2)} | ${p(0.5)} / ${p(0.95)} | ${mb(Math.max(cold.peakRss, warm.peakRss))} | ${mb(archive.bytes)} |`,
  );
  rmSync(work, { recursive: true, force: true });
}
