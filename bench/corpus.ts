/**
 * A deterministic corpus shaped like real transcripts: sessions of 4–200 turns (median ~20), short prompts, longer
 * replies, tool output and file reads that dwarf the prose, Zipf-distributed vocabulary with code identifiers, and
 * topic clusters that share characteristic words (so topic queries have several relevant sessions).
 */

export interface BenchDoc {
  id: number;
  topic: string;
  content: string[];
  messages: string[];
  date: string;
  cluster: number;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = 'ka lo mi ne ru sa te vo zu pa ri do fe gu ha ji ku le mo nu pe qi ra si ta un ve wa xo yu ze bri cla dro fle gra plo stu tra'.split(' ');
const CODE_PARTS = 'get set load parse index user session token cache config file path build test render query handler client server store event'.split(' ');

function makeWord(rand: () => number): string {
  const n = 2 + Math.floor(rand() * 3);
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  return w;
}

export interface Corpus {
  docs: BenchDoc[];
  vocabulary: string[];
  clusterWords: string[][];
  rawBytes: number;
}

export function generateCorpus(count: number, seed = 42): Corpus {
  const rand = mulberry32(seed);
  const vocabSet = new Set<string>();
  while (vocabSet.size < 40_000) vocabSet.add(makeWord(rand));
  const vocabulary = [...vocabSet];
  // Zipf: sample rank r with probability ~ 1/r via inverse CDF on a harmonic approximation.
  const zipf = (): string => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(rand() * Math.log(vocabulary.length)) - 1))];
  const clusters = Math.max(20, Math.floor(count / 25));
  const clusterWords = Array.from({ length: clusters }, () => Array.from({ length: 8 }, () => vocabulary[2000 + Math.floor(rand() * 30_000)]));
  const identifier = (): string => {
    const parts = 1 + Math.floor(rand() * 3);
    let id = CODE_PARTS[Math.floor(rand() * CODE_PARTS.length)];
    for (let i = 1; i < parts; i++) id += `_${CODE_PARTS[Math.floor(rand() * CODE_PARTS.length)]}`;
    return id;
  };
  const sentence = (words: number, cluster: string[]): string => {
    const out: string[] = [];
    for (let i = 0; i < words; i++) {
      const r = rand();
      out.push(r < 0.08 ? cluster[Math.floor(rand() * cluster.length)] : r < 0.15 ? identifier() : zipf());
    }
    return out.join(' ');
  };
  const lognormal = (median: number, sigma: number): number =>
    Math.max(1, Math.round(median * Math.exp(sigma * Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand()))));
  const docs: BenchDoc[] = [];
  let rawBytes = 0;
  const start = Date.UTC(2024, 0, 1);
  for (let id = 0; id < count; id++) {
    const cluster = Math.floor(rand() * clusters);
    const words = clusterWords[cluster];
    const turns = Math.min(200, Math.max(4, lognormal(20, 0.8)));
    const content: string[] = [];
    const messages: string[] = [];
    for (let t = 0; t < turns; t++) {
      const r = rand();
      if (t % 2 === 0 && r < 0.5) content.push(sentence(Math.min(400, lognormal(25, 0.7)), words));
      else if (r < 0.75) content.push(sentence(Math.min(1500, lognormal(80, 0.8)), words));
      else messages.push(sentence(Math.min(2500, lognormal(180, 1.0)), words));
    }
    const topic = `${words[0]} ${words[1]} ${sentence(2, words)}`;
    const doc: BenchDoc = { id, topic, content, messages, date: new Date(start + Math.floor(rand() * 700) * 86_400_000).toISOString(), cluster };
    rawBytes += topic.length + content.reduce((a, b) => a + b.length, 0) + messages.reduce((a, b) => a + b.length, 0);
    docs.push(doc);
  }
  return { docs, vocabulary, clusterWords, rawBytes };
}

export interface LabelledQuery {
  kind: 'known-item' | 'topic';
  text: string;
  words: string[];
  /** Relevant document ids. */
  relevant: Set<number>;
}

/** Known-item queries: distinctive words of one session. Topic queries: a cluster's words, relevant = its sessions. */
export function labelledQueries(corpus: Corpus, perKind: number, wordsPerQuery: number, seed = 7): LabelledQuery[] {
  const rand = mulberry32(seed + wordsPerQuery);
  const df = new Map<string, number>();
  for (const d of corpus.docs) {
    const seen = new Set([d.topic, ...d.content, ...d.messages].join(' ').split(' '));
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const queries: LabelledQuery[] = [];
  for (let i = 0; i < perKind; i++) {
    const doc = corpus.docs[Math.floor(rand() * corpus.docs.length)];
    const words = [...new Set([...doc.content, ...doc.messages].join(' ').split(' '))].filter((w) => !w.includes('_'));
    words.sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0));
    const pool = words.slice(0, Math.max(wordsPerQuery * 4, 12));
    const picked = new Set<string>();
    while (picked.size < Math.min(wordsPerQuery, pool.length)) picked.add(pool[Math.floor(rand() * pool.length)]);
    queries.push({ kind: 'known-item', text: [...picked].join(' '), words: [...picked], relevant: new Set([doc.id]) });
  }
  for (let i = 0; i < perKind; i++) {
    const cluster = Math.floor(rand() * corpus.clusterWords.length);
    const cw = corpus.clusterWords[cluster];
    const picked = new Set<string>();
    while (picked.size < Math.min(wordsPerQuery, cw.length)) picked.add(cw[Math.floor(rand() * cw.length)]);
    const relevant = new Set(corpus.docs.filter((d) => d.cluster === cluster).map((d) => d.id));
    queries.push({ kind: 'topic', text: [...picked].join(' '), words: [...picked], relevant });
  }
  return queries;
}

export function mrrAt10(ranked: number[], relevant: Set<number>): number {
  const i = ranked.slice(0, 10).findIndex((id) => relevant.has(id));
  return i === -1 ? 0 : 1 / (i + 1);
}

export function ndcgAt10(ranked: number[], relevant: Set<number>): number {
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}
