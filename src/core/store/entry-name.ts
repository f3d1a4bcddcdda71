/**
 * The archive's folder, and the name of a transcript's entry in it: the first 40 hex digits of the SHA-256 of its path.
 * Their own small module, so that the scanning thread (ingest/scan-worker.ts) names entries without loading the archive.
 */
import * as crypto from 'node:crypto';
import { join } from 'node:path';

/** The folder layout (`archive/v1/`): entries of every version live there. */
export const ARCHIVE_VERSION = 1;

/** The folder a data folder's archive entries lie in. */
export function archiveFolder(dataDir: string): string {
  return join(dataDir, 'archive', `v${ARCHIVE_VERSION}`);
}

/** SHA-256 in hex: the one-shot `crypto.hash` where the runtime has it (Node 20.12 and later), three times faster for a path. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** The file name of the archive entry of transcript `file`. */
export function entryFileName(file: string): string {
  return `${sha256Hex(file).slice(0, 40)}.jsonl`;
}
