/** File reading shared by the adapters: bounded line reads, so one huge or broken line never sinks a file. */
import { open, readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { Logger } from '../../log.js';
import { KEPT_STRING_BYTES, LongLine } from './long-line.js';

/** Lines longer than this are not held whole: read as they stream by, each of their strings cut short (long-line.ts). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/**
 * A transcript's first this many bytes are read whole; of a larger one (some are many GB), each later line of more than
 * CUT_LINE_BYTES keeps its texts' first CUT_TEXT_BYTES, so that reading it holds a bounded amount whatever its size.
 */
export const FILE_BUDGET_BYTES = 256 * 1024 * 1024;
const CUT_LINE_BYTES = 64 * 1024;
const CUT_TEXT_BYTES = 4096;
const CHUNK = 1024 * 1024;

export interface LineReadResult {
  /** Byte offset just after the last line read (a partial last line included when asked for). */
  endOffset: number;
  /** Byte offset just after the last line that ended with a newline: where an incremental read resumes. */
  completeOffset: number;
  /** Lines counted, so a read resuming at `completeOffset` numbers its lines on. */
  completeLines: number;
}

/**
 * Calls `onLine` for every complete line from `fromOffset`. A trailing line without its newline is left
 * for the next read unless `includePartialTail` (a finished file whose writer omitted the last newline).
 */
export async function readLines(
  file: string,
  onLine: (line: string, lineNo: number, partial: boolean) => void,
  options: { fromOffset?: number; firstLineNo?: number; includePartialTail?: boolean; logger?: Logger; maxLineBytes?: number; budgetBytes?: number } = {},
): Promise<LineReadResult> {
  const max = options.maxLineBytes ?? MAX_LINE_BYTES;
  const budget = options.budgetBytes ?? FILE_BUDGET_BYTES;
  let delivered = 0;
  let cutLines = 0;
  const handle = await open(file, 'r');
  try {
    let position = options.fromOffset ?? 0;
    let lineStart = position;
    let lineNo = options.firstLineNo ?? 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // a line past `max` is read as it streams by: its strings cut short, its structure kept (long-line.ts)
    let long: LongLine | undefined;
    const buffer = Buffer.allocUnsafe(CHUNK);
    const startLong = (): LongLine => {
      const reducer = new LongLine();
      for (const piece of pending) reducer.push(piece);
      pending = [];
      return reducer;
    };
    const finishLine = (tail: Buffer, partial = false): void => {
      lineNo++;
      if (!long && pendingBytes + tail.length > max) long = startLong();
      if (long) {
        long.push(tail);
        const text = long.finish();
        if (text === undefined) options.logger?.warn(`${file}:${lineNo}: line of ${long.bytes} bytes skipped (too long to read, even cut short)`);
        else {
          options.logger?.info(
            `${file}:${lineNo}: line of ${long.bytes} bytes read with ${long.cut} long text(s) cut to their first ${KEPT_STRING_BYTES} bytes`,
          );
          onLine(text, lineNo, partial);
        }
      } else if (delivered > budget && pendingBytes + tail.length > CUT_LINE_BYTES) {
        // past the file's budget: a long line keeps the start of its texts (the transcript keeps them whole)
        const cut = new LongLine(CUT_TEXT_BYTES);
        for (const piece of pending) cut.push(piece);
        cut.push(tail);
        const text = cut.finish();
        cutLines++;
        if (text !== undefined) onLine(text, lineNo, partial);
      } else {
        const bytes = pending.length ? Buffer.concat([...pending, tail]) : tail;
        onLine(bytes.toString('utf8'), lineNo, partial);
      }
      delivered += pendingBytes + tail.length;
      pending = [];
      pendingBytes = 0;
      long = undefined;
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
        if (!long && pendingBytes + rest > max) long = startLong();
        if (long) long.push(buffer.subarray(start, bytesRead));
        else pending.push(Buffer.from(buffer.subarray(start, bytesRead)));
        pendingBytes += rest;
      }
      position += bytesRead;
    }
    const completeOffset = lineStart;
    const completeLines = lineNo;
    if (pendingBytes > 0 && options.includePartialTail) {
      finishLine(Buffer.alloc(0), true);
      lineStart = position;
    }
    if (cutLines)
      options.logger?.warn(
        `${file}: over ${budget} bytes: the texts of ${cutLines} later long line(s) were kept to their first ${CUT_TEXT_BYTES} bytes, cut (the transcript keeps them whole)`,
      );
    return { endOffset: lineStart, completeOffset, completeLines };
  } finally {
    await handle.close();
  }
}

type JsonRecord = Record<string, unknown>;

/** The parsed records of a recently read append-only file, and what tells whether it was only appended to since. */
interface ParsedFile {
  ino: number;
  completeOffset: number;
  completeLines: number;
  /** The file's first bytes and the bytes before `completeOffset`: changed, the file was rewritten. */
  head: Buffer;
  tail: Buffer;
  records: { value: JsonRecord; lineNo: number }[];
  /** Where the read that produced this entry started: 0, or the previous entry's `completeOffset`. */
  resumedFrom: number;
}

/** Kept records are bounded by the bytes of the files they came from (parsed objects take a few times that). */
const PARSED_CACHE_BYTES = 32 * 1024 * 1024;
const PARSED_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Smaller files are parsed again whole: cheap, and a burst of new small files does not fill the cache. */
const PARSED_MIN_FILE_BYTES = 64 * 1024;
const CHECK_BYTES = 4096;
/**
 * Parsed records of append-only transcripts read while the library runs, bounded in bytes: each library owns one, so
 * two libraries in a process never see each other's.
 */
export class ParsedFiles {
  private readonly files = new Map<string, ParsedFile>();
  private bytes = 0;

  get(file: string): ParsedFile | undefined {
    return this.files.get(file);
  }

  set(file: string, entry: ParsedFile): void {
    this.forget(file);
    this.files.set(file, entry);
    this.bytes += entry.completeOffset;
    for (const [key] of this.files) {
      if (this.bytes <= PARSED_CACHE_BYTES) break;
      this.forget(key);
    }
  }

  forget(file: string): void {
    const entry = this.files.get(file);
    if (!entry) return;
    this.files.delete(file);
    this.bytes -= entry.completeOffset;
  }

  /** Where the last incremental read of a file started and how many records are kept for it. */
  lastRead(file: string): { resumedFrom: number; records: number } | undefined {
    const entry = this.files.get(file);
    return entry && { resumedFrom: entry.resumedFrom, records: entry.records.length };
  }

  clear(): void {
    this.files.clear();
    this.bytes = 0;
  }
}

async function readAt(file: string, at: number, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, at);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether a cached file was only appended to since: same identity, not shorter, same first bytes and same bytes at the end of what was read. */
async function onlyAppended(file: string, cached: ParsedFile): Promise<boolean> {
  const info = await stat(file);
  if (info.ino !== cached.ino || info.size < cached.completeOffset) return false;
  const head = await readAt(file, 0, cached.head.length);
  const tail = await readAt(file, cached.completeOffset - cached.tail.length, cached.tail.length);
  return head.equals(cached.head) && tail.equals(cached.tail);
}

/**
 * Every JSON object line of a file, in order; other lines are skipped with file, line and reason logged.
 * `includePartialTail` reads a last line without its newline (a finished file); otherwise it waits for more.
 *
 * With `kept` (append-only formats whose handler never modifies the records), the parsed records of a file of
 * 64 KB to 16 MB are kept there: when the file was only appended to, the kept records are replayed and parsing
 * resumes at the last complete line, instead of parsing the whole file again. A file that shrank, was replaced, or
 * whose start or last read line changed is read again from the beginning. A partial last line is never kept.
 */
export async function readJsonRecords(
  file: string,
  logger: Logger,
  onRecord: (value: JsonRecord, lineNo: number) => void,
  includePartialTail = true,
  kept?: ParsedFiles,
): Promise<LineReadResult> {
  const incremental = kept !== undefined;
  let cached = kept?.get(file);
  if (cached && !(await onlyAppended(file, cached).catch(() => false))) {
    kept!.forget(file);
    cached = undefined;
  }
  const records: { value: JsonRecord; lineNo: number }[] = cached ? cached.records : [];
  if (cached) for (const r of cached.records) onRecord(r.value, r.lineNo);
  const info = incremental ? await stat(file) : undefined;
  const result = await readLines(
    file,
    (line, lineNo, partial) => {
      const { value, error } = parseJsonObject(line);
      if (error && partial) logger.info(`${file}:${lineNo}: last line incomplete (still being written?), read once it ends`);
      else if (error) logger.warn(`${file}:${lineNo}: skipped, ${error}`);
      if (!value) return;
      onRecord(value, lineNo);
      if (incremental && !partial) records.push({ value, lineNo });
    },
    { includePartialTail, logger, fromOffset: cached?.completeOffset, firstLineNo: cached?.completeLines },
  );
  if (kept && info && info.size >= PARSED_MIN_FILE_BYTES && info.size <= PARSED_MAX_FILE_BYTES && result.completeOffset > 0) {
    const head = await readAt(file, 0, Math.min(CHECK_BYTES, result.completeOffset));
    const tailLength = Math.min(CHECK_BYTES, result.completeOffset);
    const tail = await readAt(file, result.completeOffset - tailLength, tailLength);
    kept.set(file, {
      ino: info.ino,
      completeOffset: result.completeOffset,
      completeLines: result.completeLines,
      head,
      tail,
      records,
      resumedFrom: cached?.completeOffset ?? 0,
    });
  } else kept?.forget(file);
  return result;
}

/** The records of JSON lines already in memory (a decompressed file): bad lines are logged with file and line, skipped. */
export function parseJsonLines(text: string, file: string, logger: Logger, onRecord: (value: JsonRecord, lineNo: number) => void): void {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const { value, error } = parseJsonObject(lines[i]);
    if (error) logger.warn(`${file}:${i + 1}: skipped, ${error}`);
    else if (value) onRecord(value, i + 1);
  }
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

/** Documents rewritten whole (one JSON per session or export) larger than this are skipped with a logged reason. */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;

/** A whole-file JSON document, or undefined (logged) when it is over `maxBytes`; malformed JSON throws. */
export async function readJsonDocument(file: string, logger: Logger, maxBytes = MAX_JSON_BYTES): Promise<{ doc: unknown; info: Stats } | undefined> {
  const info = await stat(file);
  if (info.size > maxBytes) {
    logger.warn(`${file}: skipped, ${info.size} bytes is over the ${maxBytes}-byte limit`);
    return undefined;
  }
  return { doc: JSON.parse(await readFile(file, 'utf8')) as unknown, info };
}
