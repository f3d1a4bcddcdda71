/** File reading shared by the adapters: bounded line reads, so one huge or broken line never sinks a file. */
import { open } from 'node:fs/promises';
import type { Logger } from '../log.js';

/** Lines longer than this are skipped with a logged reason (base64 images, runaway tool output). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const CHUNK = 1024 * 1024;

export interface LineReadResult {
  /** Byte offset just after the last complete line: where an incremental read resumes. */
  endOffset: number;
}

/**
 * Calls `onLine` for every complete line from `fromOffset`. A trailing line without its newline is left
 * for the next read unless `includePartialTail` (a finished file whose writer omitted the last newline).
 */
export async function readLines(
  file: string,
  onLine: (line: string, lineNo: number) => void,
  options: { fromOffset?: number; includePartialTail?: boolean; logger?: Logger; maxLineBytes?: number } = {},
): Promise<LineReadResult> {
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  const handle = await open(file, 'r');
  try {
    let position = options.fromOffset ?? 0;
    let lineStart = position;
    let lineNo = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let oversized = false;
    const buffer = Buffer.allocUnsafe(CHUNK);
    const finishLine = (tail: Buffer): void => {
      lineNo++;
      if (oversized || pendingBytes + tail.length > max) {
        options.logger?.warn(`${file}:${lineNo}: line of ${pendingBytes + tail.length} bytes skipped (limit ${max})`);
      } else {
        const bytes = pending.length ? Buffer.concat([...pending, tail]) : tail;
        onLine(bytes.toString('utf8'), lineNo);
      }
      pending = [];
      pendingBytes = 0;
      oversized = false;
    };
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      let start = 0;
      for (;;) {
        const nl = buffer.indexOf(10, start);
        if (nl === -1 || nl >= bytesRead) break;
        finishLine(buffer.subarray(start, nl));
        lineStart = position + nl + 1;
        start = nl + 1;
      }
      if (start < bytesRead) {
        const rest = bytesRead - start;
        if (oversized || pendingBytes + rest > max) {
          oversized = true;
          pendingBytes += rest;
          pending = [];
        } else {
          pending.push(Buffer.from(buffer.subarray(start, bytesRead)));
          pendingBytes += rest;
        }
      }
      position += bytesRead;
    }
    if (pendingBytes > 0 && options.includePartialTail) {
      finishLine(Buffer.alloc(0));
      lineStart = position;
    }
    return { endOffset: lineStart };
  } finally {
    await handle.close();
  }
}

/**
 * Every JSON object line of a file, in order; other lines are skipped with file, line and reason logged.
 * `includePartialTail` reads a last line without its newline (a finished file); otherwise it waits for more.
 */
export async function readJsonRecords(
  file: string,
  logger: Logger,
  onRecord: (value: Record<string, unknown>, lineNo: number) => void,
  includePartialTail = true,
): Promise<LineReadResult> {
  return readLines(
    file,
    (line, lineNo) => {
      const { value, error } = parseJsonObject(line);
      if (error) logger.warn(`${file}:${lineNo}: skipped, ${error}`);
      if (value) onRecord(value, lineNo);
    },
    { includePartialTail, logger },
  );
}

/** Parses one JSON line into an object, or explains why not. */
export function parseJsonObject(line: string): { value?: Record<string, unknown>; error?: string } {
  const trimmed = line.trim();
  if (!trimmed) return {};
  try {
    const value: unknown = JSON.parse(trimmed);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'not a JSON object' };
    return { value: value as Record<string, unknown> };
  } catch (err) {
    return { error: `malformed JSON (${err instanceof Error ? err.message.slice(0, 80) : 'parse error'})` };
  }
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A valid ISO timestamp or undefined. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const d = new Date(typeof v === 'number' && v < 1e11 ? v * 1000 : v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
