/**
 * A model folder as an Embedder: the encoder runs on its own thread (embed-worker.ts), texts sent in batches. From a
 * bundle the runtime's WebAssembly is the copy beside it in dist/ (esbuild.mjs); from source, the npm package's.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { startWorker, threadScript } from '../threads.js';
import type { Embedder } from './embedder.js';

/** Texts per message to the thread (a batch of 256-token texts is one run of the model). */
const BATCH = 16;

export interface EmbedStart {
  folder: string;
  wasmDir?: string;
}
export interface EmbedRequest {
  id: number;
  texts: string[];
}
export type EmbedReply = { ready: string } | { id: number; vectors: Float32Array[] } | { id?: number; error: string };

function workerScript(): { script: string; wasmDir?: string } {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  const script = threadScript(here, 'embed-worker');
  if (!script) throw new Error(`the embedding thread's script is missing beside ${here}`);
  return { script, wasmDir: script.endsWith('.ts') ? undefined : here };
}

export class FolderEmbedder implements Embedder {
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private failed: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly model: string,
  ) {
    worker.on('message', (reply: EmbedReply) => {
      if (!('id' in reply) || reply.id === undefined) return;
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('vectors' in reply) waiter?.resolve(reply.vectors);
      else waiter?.reject(new Error(reply.error));
    });
    const fail = (err: Error): void => {
      this.failed = err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedding thread exited (code ${code})`)));
  }

  /** Starts the thread and waits for the model to load (rejects with why it cannot). */
  static start(folder: string): Promise<FolderEmbedder> {
    const { script, wasmDir } = workerScript();
    const worker = startWorker(script, { folder, wasmDir } satisfies EmbedStart);
    worker.unref();
    return new Promise((resolve, reject) => {
      const first = (reply: EmbedReply): void => {
        worker.off('message', first);
        if ('ready' in reply) resolve(new FolderEmbedder(worker, reply.ready));
        else {
          void worker.terminate();
          reject(new Error('error' in reply ? reply.error : 'the embedding thread did not start'));
        }
      };
      worker.on('message', first);
      worker.once('error', reject);
    });
  }

  async embed(texts: string[], options: { timeoutMs?: number } = {}): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) out.push(...(await this.send(texts.slice(i, i + BATCH), options.timeoutMs)));
    return out;
  }

  /** One message to the thread; with a timeout (a query waiting behind a batch), given up after it (its answer ignored). */
  private send(texts: string[], timeoutMs?: number): Promise<Float32Array[]> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const timer = timeoutMs
        ? setTimeout(() => {
            this.waiting.delete(id);
            reject(new Error(`the model folder did not answer within ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
      const done = (): void => clearTimeout(timer);
      this.waiting.set(id, {
        resolve: (v) => (done(), resolve(v)),
        reject: (e) => (done(), reject(e)),
      });
      this.worker.postMessage({ id, texts } satisfies EmbedRequest);
    });
  }

  async close(): Promise<void> {
    this.failed ??= new Error('closed');
    await this.worker.terminate();
  }
}
