/**
 * Threads that parse transcript files during a long load (parse-worker.ts), so that parsing and masking one batch
 * overlaps indexing and archiving the one before. A thread that cannot start or dies hands its files back to be
 * parsed on the main thread: a pool never loses a file, it only stops helping.
 */
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { startWorker, threadScript } from '../threads.js';
import type { Logger } from '../log.js';
import { SessionNote, type ParsedSession, type SourceId } from '../model.js';

/** main → thread: parse one file. */
export interface ParseRequest {
  id: number;
  source: SourceId;
  file: string;
  root: string;
}

/** thread → main: the sessions of one file (with the notes their adapter keeps beside them), or why not; its log lines. */
export interface ParseReply {
  id: number;
  logs: ['info' | 'warn' | 'error', string][];
  sessions?: ParsedSession[];
  notes?: (Record<string, unknown> | undefined)[];
  error?: string;
}

/** The thread's script: beside the bundle that runs (dist/parse-worker.cjs), or beside this file when run from source. */
function workerScript(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  return threadScript(here, 'parse-worker');
}

type Waiting = { resolve: (sessions: ParsedSession[]) => void; reject: (err: Error) => void; thread: Thread };
type Thread = { worker: Worker; busy: number; dead: boolean };

/** Thrown for files a thread took and could not finish: the caller parses them itself. */
export class ThreadGone extends Error {}

export class ParsePool {
  private readonly threads: Thread[] = [];
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private closing = false;

  private constructor(
    script: string,
    size: number,
    env: NodeJS.ProcessEnv,
    private readonly logger: Logger,
  ) {
    for (let i = 0; i < size; i++) {
      const thread: Thread = { worker: startWorker(script, { env }), busy: 0, dead: false };
      thread.worker.on('message', (reply: ParseReply) => this.settle(reply));
      thread.worker.on('error', (err) => this.lose(thread, err.message));
      thread.worker.on('exit', (code) => this.lose(thread, `exited with code ${code}`));
      this.threads.push(thread);
    }
  }

  /** A pool for a load, or none where a thread would not help (one core) or cannot start (no script beside the bundle). */
  static open(env: NodeJS.ProcessEnv, logger: Logger, size = Math.min(3, availableParallelism() - 1)): ParsePool | undefined {
    const script = workerScript();
    if (size < 1 || !script) return undefined;
    try {
      const pool = new ParsePool(script, size, env, logger);
      logger.info(`parsing on ${size} thread(s) beside indexing`);
      return pool;
    } catch (err) {
      logger.warn(`parsing on the main thread: no parsing thread (${String(err)})`);
      return undefined;
    }
  }

  /** The sessions of one file, parsed and masked by the least busy thread; ThreadGone when no thread is left to do it. */
  parse(source: SourceId, file: string, root: string): Promise<ParsedSession[]> {
    const thread = this.threads.filter((t) => !t.dead).sort((a, b) => a.busy - b.busy)[0];
    if (!thread) return Promise.reject(new ThreadGone('no parsing thread left'));
    const id = this.nextId++;
    thread.busy++;
    thread.worker.postMessage({ id, source, file, root } satisfies ParseRequest);
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject, thread }));
  }

  private settle(reply: ParseReply): void {
    const waiting = this.waiting.get(reply.id);
    for (const [level, message] of reply.logs) this.logger[level](message);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    waiting.thread.busy--;
    if (reply.error !== undefined || !reply.sessions) return waiting.reject(new Error(reply.error ?? 'no answer'));
    reply.sessions.forEach((s, k) => SessionNote.unpack(s, reply.notes?.[k]));
    waiting.resolve(reply.sessions);
  }

  private lose(thread: Thread, why: string): void {
    if (thread.dead) return;
    thread.dead = true;
    if (this.closing) return; // the load is over: what it no longer waits for is dropped
    this.logger.warn(`a parsing thread stopped (${why}); its files are parsed on the main thread`);
    for (const [id, w] of this.waiting)
      if (w.thread === thread) {
        this.waiting.delete(id);
        w.reject(new ThreadGone(why));
      }
  }

  /** Stops the threads once a load is over (or cancelled): parses still under way are dropped, not answered. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
