/**
 * A thread that reads the semantic leg's file into the memory the main thread shared with it and decodes it whole
 * (its checksum, the range of every term), then says how much it read and whether it decodes (semantic-aside.ts).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors.js';
import { decodeSemantic } from './semantic-file.js';
import type { SemanticCheckReply, SemanticCheckRequest } from './semantic-aside.js';

const port = parentPort;
if (port) {
  const { path, into } = workerData as SemanticCheckRequest;
  let reply: SemanticCheckReply;
  try {
    const bytes = Buffer.from(into);
    const read = readAll(path, bytes);
    reply = { read, decodes: decodeSemantic(bytes.subarray(0, read)) !== undefined };
  } catch (err) {
    reply = { error: errorMessage(err) };
  }
  port.postMessage(reply);
}

/** Reads the file into `bytes` (at most their length: a file that grew is not what was stated), returns how much. */
function readAll(path: string, bytes: Buffer): number {
  const fd = openSync(path, 'r');
  try {
    let at = 0;
    for (let n = 1; n > 0 && at < bytes.length; at += n) n = readSync(fd, bytes, at, bytes.length - at, at);
    return at;
  } finally {
    closeSync(fd);
  }
}
