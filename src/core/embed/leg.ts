/**
 * Meaning from the user's own model: the vectors of every session's units (units.ts), made in the background and kept
 * in the data folder (vectors.ts), one more list in the hybrid fusion (answer/hybrid.ts). Lexical answers at once
 * meanwhile; without a model nothing here runs. Embedding waits for the first load, goes newest session first a batch
 * at a time, keeps the vectors of units it already has (a session that grew embeds only its new units), writes its file
 * every SAVE_MS and when closed, and after a failure (the endpoint stopped) tries again later, from where it was.
 * A query's vector is asked for before the (synchronous) ranking runs: `prepare`, then `search`.
 */
import type { EmbeddingsState } from '../contracts.js';
import type { Logger } from '../log.js';
import type { Session } from '../model.js';
import type { TurnStore } from '../store/turn-store.js';
import { describeEmbed, type EmbedConfig } from './config.js';
import type { Embedder } from './embedder.js';
import { embeddingUnits } from './units.js';
import { VectorStore } from './vectors.js';

/** Texts per call of the model while embedding sessions. */
const TEXTS_PER_BATCH = 32;
const SAVE_MS = 60_000;
/** Pauses after a failure, growing to the last. */
const RETRY_MS = [15_000, 60_000, 300_000];
/** How long a search waits for its query's vector before it answers without it. */
export const QUERY_TIMEOUT_MS = 4_000;
const QUERY_CACHE = 64;
/** How long closing waits for a batch being embedded. */
const CLOSE_WAIT_MS = 3_000;

/** starting: the model is being loaded; embedding: sessions are being embedded; failed: see `error` (tried again later). */
export type MeaningState = EmbeddingsState;

export interface MeaningOptions {
  logger: Logger;
  /** The library's sessions (what is embedded). */
  sessions: () => ReadonlyMap<string, Session>;
  /** Where their conversation turns are read. */
  turns: TurnStore;
  /** The embedder the config names (endpoint.ts, folder.ts). */
  open: (config: EmbedConfig) => Promise<Embedder>;
  /** The vectors' file as last written, and how to write it (false: another process is the writer). */
  read?: () => Promise<Buffer | undefined>;
  write?: (parts: Buffer[]) => Promise<boolean>;
  /** Tests give short pauses. */
  retryMs?: readonly number[];
}

export class MeaningLeg {
  private embedder: Embedder | undefined;
  private store: VectorStore | undefined;
  private readonly queue = new Set<string>();
  private readonly queries = new Map<string, Float32Array>();
  private readonly started: Promise<void>;
  private running: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private held = true;
  private closed = false;
  private dirty = false;
  private savedAt = Date.now();
  /** The writes of the vectors' file, one after another (close waits for the last). */
  private saving: Promise<void> = Promise.resolve();
  private error: string | undefined;
  private queryError: string | undefined;
  /** How much its list counts in the fusion (undefined: the default). */
  weight: number | undefined;

  constructor(
    readonly config: EmbedConfig,
    private readonly options: MeaningOptions,
  ) {
    this.weight = config.weight;
    this.started = this.start();
  }

  private async start(): Promise<void> {
    const { logger } = this.options;
    try {
      this.embedder = await this.options.open(this.config);
    } catch (err) {
      this.error = `the model could not be used: ${(err as Error).message}`;
      logger.warn(`meaning (${describeEmbed(this.config)}): ${this.error}; searches rank without it`);
      return;
    }
    if (this.closed) return void (await this.embedder.close());
    const bytes = await this.options.read?.().catch(() => undefined);
    this.store = (bytes && VectorStore.decode(bytes, this.embedder.model)) || new VectorStore(this.embedder.model);
    if (bytes && !this.store.entries.size) logger.info(`meaning: the vectors on disk are of another model or damaged; sessions are embedded again`);
    logger.info(`meaning from ${describeEmbed(this.config)} (${this.embedder.model}): ${this.store.entries.size} sessions embedded`);
    this.enqueueMissing();
    this.kick();
  }

  /** Every session without vectors (restored from a snapshot, or read before the model was named), newest first. */
  private enqueueMissing(): void {
    if (!this.store) return;
    const newest = [...this.options.sessions().values()].sort((a, b) => (b.updated > a.updated ? 1 : -1));
    for (const s of newest) if (!this.store.entries.has(s.id)) this.queue.add(s.id);
  }

  get state(): MeaningState {
    const total = this.options.sessions().size;
    const done = this.store ? Math.min(total, this.store.entries.size) : 0;
    const error = this.error;
    const status = error ? 'failed' : !this.store ? 'starting' : this.queue.size ? 'embedding' : 'ready';
    return { status, model: this.embedder?.model ?? describeEmbed(this.config), sessionsDone: done, sessionsTotal: total, ...(error ? { error } : {}) };
  }

  /** Whether a search of `text` can rank by the model: its vector was prepared and sessions have theirs. */
  knows(text: string): boolean {
    return !!this.store?.entries.size && this.queries.has(text);
  }

  /** A session read or changed: (re)embedded in its turn. */
  add(session: Session): void {
    this.queue.add(session.id);
    this.kick();
  }

  remove(id: string): void {
    this.queue.delete(id);
    if (this.store?.delete(id)) this.dirty = true;
  }

  /** Embedding may start (the first load is done); `hold` stops it until the next release. */
  release(): void {
    this.held = false;
    this.enqueueMissing();
    this.kick();
  }

  hold(): void {
    this.held = true;
  }

  /** Asks the model for the query's vector (kept for the next QUERY_CACHE queries); without it the search goes on. */
  async prepare(text: string): Promise<void> {
    await this.started;
    if (!this.embedder || !this.store?.entries.size || !text.trim() || this.queries.has(text)) return;
    try {
      const [v] = await this.embedder.embed([text], { timeoutMs: QUERY_TIMEOUT_MS });
      this.queries.set(text, v);
      if (this.queries.size > QUERY_CACHE) this.queries.delete(this.queries.keys().next().value!);
      this.queryError = undefined;
    } catch (err) {
      const why = (err as Error).message;
      if (why !== this.queryError) this.options.logger.warn(`meaning: no vector for a query (${why}); it ranks without the model`);
      this.queryError = why;
    }
  }

  /** Sessions by the model's similarity to a prepared query, best first. */
  search(text: string, limit: number, accept?: (key: string) => boolean): { key: string; similarity: number }[] {
    const q = this.queries.get(text);
    return q && this.store ? this.store.search(q, limit, accept) : [];
  }

  /** Settles once nothing is left to embed, or embedding failed (tests, benchmarks). */
  async settled(): Promise<void> {
    await this.started;
    while (this.running) await this.running;
    await this.saving;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.started;
    // a batch in flight (a slow endpoint may take its whole timeout) is not waited for long: what it brings is lost,
    // and embedded again next time
    await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
    await this.save();
    await this.saving;
    await this.embedder?.close();
  }

  private kick(): void {
    if (this.running || this.held || this.closed || !this.store || !this.queue.size || this.retry) return;
    this.running = this.run().finally(() => {
      this.running = undefined;
      void this.save(true);
    });
  }

  private async run(): Promise<void> {
    const { logger } = this.options;
    const startedAt = performance.now();
    let embedded = 0;
    while (!this.held && !this.closed && this.queue.size) {
      const batch = this.nextBatch();
      const texts = batch.flatMap((b) => b.missing.map((u) => u.text));
      let vectors: Float32Array[];
      try {
        vectors = texts.length ? await this.embedder!.embed(texts) : [];
      } catch (err) {
        this.error = `embedding stopped: ${(err as Error).message}`;
        const pause = (this.options.retryMs ?? RETRY_MS)[Math.min(this.failures++, (this.options.retryMs ?? RETRY_MS).length - 1)];
        logger.warn(`meaning: ${this.error}; ${this.queue.size} sessions left, tried again in ${Math.round(pause / 1000)} s`);
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.kick();
        }, pause);
        this.retry.unref();
        return;
      }
      if (this.closed) return;
      this.error = undefined;
      this.failures = 0;
      let at = 0;
      for (const { id, units, kept, missing } of batch) {
        const fresh = new Map(missing.map((u) => [u.hash, vectors[at++]]));
        try {
          this.store!.set(
            id,
            units.map((u) => u.hash),
            units.map((u) => kept.get(u.hash) ?? fresh.get(u.hash)!),
          );
        } catch (err) {
          logger.warn(`meaning: ${id} not embedded (${(err as Error).message})`);
        }
        this.queue.delete(id);
        this.dirty = true;
        embedded++;
      }
      if (Date.now() - this.savedAt > SAVE_MS) await this.save();
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (embedded) logger.info(`meaning: ${embedded} sessions embedded in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (${this.queue.size} left)`);
  }

  /** The next sessions to embed, up to TEXTS_PER_BATCH new texts: each with its units, the vectors it keeps, the texts it needs. */
  private nextBatch() {
    const store = this.store!;
    const sessions = this.options.sessions();
    const batch: { id: string; units: ReturnType<typeof embeddingUnits>; kept: Map<number, Float32Array>; missing: ReturnType<typeof embeddingUnits> }[] = [];
    let texts = 0;
    for (const id of this.queue) {
      if (texts >= TEXTS_PER_BATCH) break;
      const session = sessions.get(id);
      let units: ReturnType<typeof embeddingUnits> = [];
      try {
        units = session ? embeddingUnits({ topic: session.topic, turns: this.options.turns.conversation(session) }) : [];
      } catch (err) {
        this.options.logger.warn(`meaning: ${id} not embedded (its turns could not be read: ${(err as Error).message})`);
      }
      if (!units.length) {
        this.queue.delete(id);
        if (store.delete(id)) this.dirty = true;
        continue;
      }
      const old = store.entries.get(id);
      const kept = new Map<number, Float32Array>();
      if (old) old.hashes.forEach((h, u) => kept.set(h, store.unit(old, u)));
      const missing = units.filter((u) => !kept.has(u.hash));
      batch.push({ id, units, kept, missing });
      texts += missing.length;
    }
    return batch;
  }

  private save(ifDirtyOnly = true): Promise<void> {
    this.saving = this.saving.then(() => this.write(ifDirtyOnly));
    return this.saving;
  }

  private async write(ifDirtyOnly: boolean): Promise<void> {
    if (!this.store || !this.options.write || (ifDirtyOnly && !this.dirty)) return;
    this.dirty = false;
    this.savedAt = Date.now();
    try {
      if (!(await this.options.write(this.store.encodeParts()))) this.dirty = true;
    } catch (err) {
      this.dirty = true;
      this.options.logger.warn(`meaning: the vectors could not be written (${(err as Error).message})`);
    }
  }
}
