/**
 * The semantic leg's file read and checked on a thread of its own (semantic-check-worker.ts) while a warm start
 * restores the snapshot here. The check is the file's whole decode: its checksum and the range of every term, which
 * at 50,000 sessions (a file of 134 MB) held the main thread about 0.1 s of the start's critical path, while the
 * other core had time to spare. The thread hands the bytes over (moved, not copied) with its verdict, and only the
 * views are made here. Where no thread can start (no script beside the bundle) or it fails, the file is read and
 * checked here as before: a thread only saves time.
 */
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorker, threadScript } from '../threads.js';
import { decodeSemantic, type SemanticData } from './semantic-file.js';

/** A file at least this large is read and checked on a thread (10,000 sessions: 29 MB; a thread costs ~30 ms to start). */
export const SEMANTIC_ASIDE_MIN_BYTES = 16 * 1024 * 1024;

/**
 * main → thread (its workerData): the file, and the memory to read it into, made here (the main thread's heap is still
 * small at the start of a restore: memory that arrived later from the thread, moved into a heap full of the snapshot's
 * header, made the collector go through that heap once more, longer than the check had taken).
 */
export interface SemanticCheckRequest {
  path: string;
  into: SharedArrayBuffer;
}

/** thread → main: how many bytes it read and whether they decode; `error`: the file could not be read. */
export type SemanticCheckReply = { read: number; decodes: boolean } | { error: string };

/** What a read of the file gave: nothing (no file), or its data (undefined: unreadable or damaged, learned again). */
export type SemanticRead = { data: SemanticData | undefined } | undefined;

/** The file read and decoded: on a thread where it is large (or `aside` says so), else here. */
export async function readSemantic(path: string, aside?: boolean): Promise<SemanticRead> {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  if (size === undefined) return undefined;
  const script = (aside ?? size >= SEMANTIC_ASIDE_MIN_BYTES) ? semanticCheckScript() : undefined;
  const into = script ? new SharedArrayBuffer(size) : undefined;
  const reply = script && into ? await checkOnThread(script, { path, into }) : undefined;
  if (reply && 'read' in reply) return { data: reply.decodes ? decodeSemantic(Buffer.from(into!, 0, reply.read), true) : undefined };
  const bytes = await readWhole(path).catch(() => undefined);
  return bytes && { data: decodeSemantic(bytes) };
}

function semanticCheckScript(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  return threadScript(here, 'semantic-check-worker');
}

/** The thread's reply; undefined where it failed (read here instead). */
function checkOnThread(script: string, request: SemanticCheckRequest): Promise<SemanticCheckReply | undefined> {
  return new Promise((resolve) => {
    try {
      const worker = startWorker(script, request);
      worker.once('message', (reply: SemanticCheckReply) => resolve('error' in reply ? undefined : reply));
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    } catch {
      resolve(undefined);
    }
  });
}

/** The most one read asks for (a read may not ask for 2 GB or more). */
const READ_MAX = 1 << 30;

/**
 * A file's bytes, read whole by one request to the thread pool. (`readFile` reads 512 KB at a time, and each piece
 * waits for this thread: the semantic leg's file, 29 MB at 10,000 sessions, was read only once the snapshot's header
 * had been parsed, and the warm start waited for it.)
 */
export async function readWhole(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(size - at, READ_MAX), at);
      if (bytesRead === 0) break; // (cut while read: what was read is all there is, and the file's checksum says so)
      at += bytesRead;
    }
    return bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}
