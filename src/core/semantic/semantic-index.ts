/**
 * The semantic leg: each session's bag of words by Porter stem (title, the user's prompts, the last reply: what a
 * session is about, not every byte of tool output), an LSA model learned from all the bags in the background (on a
 * thread when one can start), and one unit vector per session. Lexical search answers meanwhile; sessions added after training are folded
 * into the model at once, and the model is learned again once the archive grew by a fifth. Memory: a bag keeps at most
 * BAG_TERMS words (6 bytes each), the model MODEL_WORDS × K floats, a vector K floats (0.5 KB) per session.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../log.js';
import { firstPrompt, isPrompt, type Session, type Turn } from '../model.js';
import { tokenize } from '../index/tokenize.js';
import { startWorker, threadScript } from '../threads.js';
import type { QuerySlot } from '../index/ranking.js';
import { AskedIndex, askedStems, keptWord, sortedBag, stemOf } from './asked-index.js';
import { fold, trainLsa, type Bag, type LsaModel } from './lsa.js';
import type { SemanticData } from './semantic-file.js';
import { bagAt, packBags, RowMap } from './rows.js';

/** Dimensions of the model (measured on the judged set: bench/relevance/semantic.ts). */
export const K = 128;
/** Words a session's bag keeps (its most frequent ones). */
export const BAG_TERMS = 160;
/**
 * Words the model knows at most (those in the most sessions, at least two): 30,000 × 128 floats = 15 MB. Below 65,536:
 * inModelOrder packs a model id in 16 bits.
 */
export const MODEL_WORDS = 30_000;
/** Sessions needed before a model is worth learning. */
const MIN_SESSIONS = 20;
/** Characters of each chunk, and chunks per session. */
const CHUNK_CHARS = 600;
const CHUNKS = 24;

/** main → training thread. */
export interface TrainRequest {
  bags: Bag[];
  vocabulary: number;
  k: number;
}
/** training thread → main. */
export interface TrainReply {
  model?: LsaModel;
  error?: string;
}

export interface SemanticState {
  /** `building` while a model is learned (searches are lexical until the first one is ready). */
  status: 'empty' | 'building' | 'ready';
  sessions: number;
  vectors: number;
}

/** The text a session's bag is made of: title, the user's prompts, and the last reply, each cut short. */
export function sessionChunks(session: Session, turns: readonly Turn[]): string[] {
  const conversation = turns.filter((t) => t.kind === 'conversation');
  const prompts = conversation.filter(isPrompt).map((t) => t.text);
  if (!prompts.length) prompts.push(firstPrompt(session) ?? '');
  const last = conversation.filter((t) => t.role === 'assistant').at(-1)?.text;
  return [session.topic, ...prompts, ...(last ? [last] : [])]
    .slice(0, CHUNKS)
    .map((t) => t.slice(0, CHUNK_CHARS))
    .filter((t) => t.trim());
}

/** The training thread's script beside this module (bundle or source). */
function trainScript(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  return threadScript(here, 'train-worker');
}

/** Strings in code-unit order (not the locale's: the same order everywhere). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A bag's words that the model knows, as model ids in the model's order: the sums of learning and of folding a session
 * in are the same whatever ids the library gave its words. Each word and its count are packed in one number (model id
 * above 16 bits, count below: MODEL_WORDS < 65,536) and sorted as numbers.
 */
function inModelOrder(bag: Bag, toModel: Int32Array): Bag {
  const packed = new Uint32Array(bag.terms.length);
  let n = 0;
  for (let p = 0; p < bag.terms.length; p++) {
    const t = bag.terms[p];
    const m = t < toModel.length ? toModel[t] : -1;
    if (m >= 0) packed[n++] = m * 65_536 + bag.counts[p];
  }
  const kept = packed.subarray(0, n).sort();
  return { terms: Uint32Array.from(kept, (x) => x >>> 16), counts: Uint16Array.from(kept, (x) => x & 0xffff) };
}

export class SemanticIndex {
  private readonly words = new Map<string, number>();
  private readonly bags = new RowMap<Bag>();
  private readonly vectors = new RowMap<Float32Array>();
  /** What the file held, while the bags and vectors are still its rows (written again as they are). */
  private restored: SemanticData | undefined;
  /** The vectors in one array, row by row, in the map's order (built when searched after a change; see packed()). */
  private table: { keys: string[]; rows: Float32Array; k: number } | undefined;
  /** What each session asked, by stem (a lexical list of its own, fused beside the vectors). */
  private readonly asked = new AskedIndex();
  private model: { lsa: LsaModel; /** vocabulary id → model id (−1: not in the model) */ toModel: Int32Array; sessions: number } | undefined;
  private training: Promise<void> | undefined;
  private filling: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Held while a load runs: learning waits for the whole archive rather than racing the parse threads for cores. */
  private held = true;

  constructor(
    private readonly logger: Logger,
    /** Wait this long after the last change before learning (a load adds thousands of sessions in a row). */
    private readonly quietMs = 2_000,
    /** Learn on a thread (off in tests that want it inline and deterministic in time). */
    private readonly threads = true,
    /** Told when a model was learned (so that it is written with the next snapshot). */
    private readonly learned: () => void = () => undefined,
  ) {}

  get state(): SemanticState {
    return { status: this.model ? 'ready' : this.training ? 'building' : 'empty', sessions: this.bags.size, vectors: this.vectors.size };
  }

  /** A session and its conversation turns: its bag, its asked stems, and its vector when a model exists. */
  add(session: Session, turns: readonly Turn[]): void {
    this.asked.set(session.id, sortedBag(askedStems(session, turns).map(([stem, n]) => [this.wordId(stem), n])));
    const counts = new Map<string, number>();
    for (const chunk of sessionChunks(session, turns))
      for (const w of tokenize(chunk))
        if (keptWord(w)) {
          const t = stemOf(w);
          counts.set(t, (counts.get(t) ?? 0) + 1);
        }
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, BAG_TERMS);
    const bag: Bag = {
      terms: Uint32Array.from(top, ([w]) => this.wordId(w)),
      counts: Uint16Array.from(top, ([, n]) => Math.min(n, 65_535)),
    };
    this.bags.set(session.id, bag);
    this.foldIn(session.id, bag);
    this.schedule();
  }

  private wordId(word: string): number {
    let id = this.words.get(word);
    if (id === undefined) this.words.set(word, (id = this.words.size));
    return id;
  }

  has(id: string): boolean {
    return this.bags.has(id);
  }

  remove(id: string): void {
    this.bags.delete(id);
    this.asked.remove(id);
    this.vectors.delete(id);
    this.table = undefined;
  }

  clear(): void {
    this.bags.clear();
    this.asked.clear();
    this.vectors.clear();
    this.table = undefined;
    this.model = undefined;
    this.restored = undefined;
  }

  /** Whether the model knows a word (it is in the vocabulary it learned). */
  knows(word: string): boolean {
    const id = this.words.get(stemOf(word));
    return id !== undefined && this.model !== undefined && id < this.model.toModel.length && this.model.toModel[id] >= 0;
  }

  /** Sessions by similarity to the query's words, best first (at most `limit`, only those `accept` takes). */
  search(query: string | readonly string[], limit: number, accept?: (key: string) => boolean): { key: string; similarity: number }[] {
    if (!this.model) return [];
    // a query's terms as its plan holds them, or a text to cut into words
    const words = (typeof query === 'string' ? tokenize(query) : query).map((w) => this.words.get(stemOf(w))).filter((id): id is number => id !== undefined);
    const q = this.vectorOf({ terms: Uint32Array.from(words), counts: new Uint16Array(words.length).fill(1) });
    if (!q) return [];
    const best: { key: string; similarity: number }[] = [];
    const { keys, rows, k } = this.packed();
    // the cosine of unit vectors (lsa.ts's `fold` gives them unit length), the terms summed in order, four a step (the
    // query's as doubles: 1.28 against 1.95 ms for 10,000 rows of 128, measured)
    const qd = Float64Array.from(q);
    const whole = k - (k % 4);
    for (let d = 0; d < keys.length; d++) {
      const at = d * k;
      let similarity = 0;
      let i = 0;
      for (; i < whole; i += 4) {
        similarity += qd[i] * rows[at + i];
        similarity += qd[i + 1] * rows[at + i + 1];
        similarity += qd[i + 2] * rows[at + i + 2];
        similarity += qd[i + 3] * rows[at + i + 3];
      }
      for (; i < k; i++) similarity += qd[i] * rows[at + i];
      const key = keys[d];
      if (best.length === limit && similarity <= best[limit - 1].similarity) continue;
      if (accept && !accept(key)) continue;
      best.push({ key, similarity });
      best.sort((a, b) => b.similarity - a.similarity);
      if (best.length > limit) best.pop();
    }
    return best;
  }

  /** Whether session `key`'s user asked every one of `words` (by stem, in a prompt or the title). */
  asksAll(key: string, words: string[]): boolean {
    const ids: number[] = [];
    for (const w of words) {
      const id = this.words.get(stemOf(w));
      if (id === undefined) return false;
      ids.push(id);
    }
    return this.asked.holdsAll(key, ids);
  }

  /** Sessions by what their user asked (stems of the slots' words), best first; see asked-index.ts. */
  searchAsked(slots: QuerySlot[], limit: number, accept?: (key: string) => boolean): { key: string; score: number }[] {
    return this.asked.search(slots, (stem) => this.words.get(stem), limit, accept);
  }

  /** The bags, the model and the vectors, to be written to disk (semantic-file.ts). */
  toData(): SemanticData {
    const { keys, rows } = this.model ? this.packed() : { keys: [], rows: new Float32Array(0) };
    return {
      words: [...this.words.keys()],
      bags: this.bags.asRestored && this.restored ? this.restored.bags : packBags(this.bags),
      asked: this.asked.toRows(),
      model: this.model,
      vectors: { ids: keys, rows },
    };
  }

  /** Takes what a file held, for the sessions `keep` accepts (bags, and the model with its vectors when there was one). */
  fromData(data: SemanticData, keep: (id: string) => boolean): void {
    if (this.bags.size || this.model) return; // only into an empty leg: the ids of words would not agree
    data.words.forEach((w, i) => this.words.set(w, i));
    // each session's bag and vector is made (a view of the file's bytes) when it is read, not all of them now
    this.bags.restore(data.bags.ids, (row) => bagAt(data.bags, row), keep);
    this.asked.restore(data.asked, (id) => this.bags.has(id));
    if (data.model) {
      this.model = data.model;
      const k = data.model.lsa.k;
      const rows = data.vectors.rows;
      this.vectors.restore(
        data.vectors.ids,
        (row) => rows.subarray(row * k, (row + 1) * k),
        (id) => this.bags.has(id),
      );
      // vectors read from a file lie one after another in its bytes: already the table a search reads
      if (this.vectors.asRestored) this.table = { keys: data.vectors.ids, rows, k };
    }
    this.restored = data;
    this.schedule();
  }

  /**
   * Makes the bags of sessions that have none (restored from a snapshot written before the leg, or with its file
   * damaged) from their turns, a few at a time between other work; then learning may start. `current`: the session
   * the library holds by that id when its turn comes (none: it left meanwhile).
   */
  fill(ids: string[], current: (id: string) => Session | undefined, turnsOf: (s: Session) => readonly Turn[]): void {
    const missing = ids.filter((id) => !this.bags.has(id) || !this.asked.has(id));
    if (!missing.length) return;
    this.filling = (async () => {
      for (const id of missing) {
        if (this.closed) return;
        const session = current(id);
        // (gone, or read again meanwhile, which gave it its bags)
        if (!session || (this.bags.has(id) && this.asked.has(id))) continue;
        try {
          this.add(session, turnsOf(session));
        } catch (err) {
          this.logger.warn(`${session.id}: no semantic bag (${String(err)})`);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })().finally(() => {
      this.filling = undefined;
      this.schedule();
    });
  }

  /** Lets learning start (after a load); `hold` stops new learning until the next release. */
  release(): void {
    this.held = false;
    this.schedule();
  }

  hold(): void {
    this.held = true;
  }

  /** Settles when no model is being learned (tests and benchmarks wait for vectors with it). */
  async settled(): Promise<void> {
    await this.filling;
    while (this.timer || this.training) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.train();
      }
      await this.training;
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private vectorOf(bag: Bag): Float32Array | undefined {
    if (!this.model) return undefined;
    return fold(inModelOrder(bag, this.model.toModel), this.model.lsa);
  }

  private foldIn(id: string, bag: Bag): void {
    const v = this.vectorOf(bag);
    if (v) this.vectors.set(id, v);
    else this.vectors.delete(id);
    this.table = undefined;
  }

  /**
   * The vectors as one array of rows: a search reads them in order (at 10,000 sessions, with the sum below, about half the time of a map
   * walk with a call per vector). Each vector becomes a view of its row, so that the table is their only copy.
   */
  private packed(): { keys: string[]; rows: Float32Array; k: number } {
    if (this.table) return this.table;
    const keys = [...this.vectors.keys()];
    const k = this.model?.lsa.k ?? 0;
    const rows = new Float32Array(keys.length * k);
    keys.forEach((key, d) => {
      rows.set(this.vectors.get(key)!.subarray(0, k), d * k);
      this.vectors.set(key, rows.subarray(d * k, (d + 1) * k));
    });
    return (this.table = { keys, rows, k });
  }

  /** Learn (again) once quiet, when there is no model or the archive grew by a fifth since the last one. */
  private schedule(): void {
    if (this.closed || this.held || this.filling || this.timer || this.training) return;
    if (this.bags.size < MIN_SESSIONS || (this.model && this.bags.size < this.model.sessions * 1.2)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.train();
    }, this.quietMs);
    this.timer.unref();
  }

  private train(): void {
    if (this.closed || this.training || this.bags.size < MIN_SESSIONS) return;
    const started = performance.now();
    // the model's words: in two sessions at least, the MODEL_WORDS found in the most sessions
    const df = new Uint32Array(this.words.size);
    for (const bag of this.bags.values()) for (const t of bag.terms) df[t]++;
    // The model is a function of the sessions and their words, not of the order they were read in: a library restored
    // from its snapshot and one built afresh from the same transcripts learn the same model. Words by the sessions
    // holding them, then by spelling; sessions by id; each bag's words in the model's order.
    const spelling: string[] = [];
    for (const [word, id] of this.words) spelling[id] = word;
    const chosen = [...df.keys()]
      .filter((t) => df[t] > 1)
      .sort((a, b) => df[b] - df[a] || byText(spelling[a], spelling[b]))
      .slice(0, MODEL_WORDS);
    const toModel = new Int32Array(this.words.size).fill(-1);
    chosen.forEach((t, m) => (toModel[t] = m));
    const bags: Bag[] = [];
    for (const id of [...this.bags.keys()].sort(byText)) bags.push(inModelOrder(this.bags.get(id)!, toModel));
    const sessions = this.bags.size;
    const request: TrainRequest = { bags, vocabulary: chosen.length, k: K };
    this.training = this.learn(request)
      .then((lsa) => {
        if (this.closed) return;
        this.model = { lsa, toModel, sessions };
        for (const [id, bag] of this.bags) this.foldIn(id, bag);
        this.learned();
        this.logger.info(
          `semantic model learned from ${sessions} sessions (${chosen.length} words, ${lsa.k} dimensions) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      })
      .catch((err: unknown) => this.logger.warn(`semantic model not learned (${String(err)}); searches stay lexical`))
      .finally(() => {
        this.training = undefined;
        this.schedule();
      });
  }

  /** Trains on a thread when one can start, else here. */
  private learn(request: TrainRequest): Promise<LsaModel> {
    const script = this.threads ? trainScript() : undefined;
    if (!script) return Promise.resolve().then(() => trainLsa(request.bags, request.vocabulary, request.k));
    return new Promise((resolve, reject) => {
      const worker = startWorker(script, request);
      worker.unref(); // a command that is done does not wait for a model it will not use
      worker.once('message', (reply: TrainReply) => {
        void worker.terminate();
        if (reply.model) resolve(reply.model);
        else reject(new Error(reply.error ?? 'no model'));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`training thread exited with code ${code}`)));
    });
  }
}
