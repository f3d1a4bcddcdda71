/**
 * Snippets without parsing a whole session. An archive line of version 3 carries the session's turn layout: for each
 * turn, where its JSON lies in the line, its role and its kind. A search reads the line's head, reads turn by turn the
 * ones the snippet chooser asks for (index/snippet-turns.ts: the conversation, then tool output until enough is
 * found), parses only the few it chooses, and cuts the snippets from those. A session of many MB costs a few reads,
 * not a JSON.parse of everything it holds.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { isPrompt, ROLES, TURN_KINDS, type Turn } from '../model.js';
import type { ParsedQuery } from '../index/query.js';
import { findSnippets, type Snippet } from '../index/snippets.js';
import { chooseSnippetTurns, MAX_SNIPPETS, type SnippetTurnOptions, type TurnSource } from '../index/snippet-turns.js';
import { crc32 } from 'node:zlib';
import { LAYOUT_FIELDS, lineChecks, lineHead } from './archive-line.js';
import { foldable, foldedSearch } from './folded-bytes.js';
import { escapeRegExp } from '../regexp.js';

/** A session's archive line opened for reading single turns: its layout, and reads of one turn's JSON at a time. */
export interface RawSession {
  /** LAYOUT_FIELDS numbers per turn: offset (from the JSON's start) and length of its JSON, flags, checksum, text length. */
  layout: Uint32Array;
  /**
   * The JSON bytes of turn `i`, or undefined when they do not match their checksum (`verify` false: not checked, for a
   * scan whose bytes are parsed and shown only once checked). `next`: the turns after `i` the caller asks for next
   * (a read for `i` takes those of them within READ_AHEAD_BYTES, and stops at the last; by default every turn after it).
   * The bytes may be overwritten by the next call: they are to be decoded before it.
   */
  turn(i: number, verify?: boolean, next?: (j: number) => boolean): Buffer | undefined;
  /** The line's JSON in one read (for a scan of every turn), or undefined when it cannot be read whole. */
  body(): Buffer | undefined;
  /** `body`, the whole line read and its checksum checked: undefined where it does not match (any turn damaged). */
  checkedBody(): Buffer | undefined;
  close(): void;
}

/** Bytes of a line read first: the checksum, the layout of up to a few thousand turns, the session's id. */
const HEAD_BYTES = 64 * 1024;
/**
 * Bytes read at once for a turn: it and the turns after it that the caller asks for next. One read per turn made a
 * search of ten sessions some 4,400 system calls, about a third of its time; a read of 64 KB whatever came next read
 * 3.3 times the bytes of the conversation the snippet chooser scans (the tool output between its turns).
 */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * The session at `at` of an archive entry, opened for reading turn by turn, when its line has a layout and holds
 * session `id`; undefined otherwise (older line, moved, damaged). Reads the line's head, not the whole line.
 */
export function readRawSession(entry: string, at: [number, number], id: string): RawSession | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(entry, 'r');
    const read = (offset: number, length: number): Buffer | undefined => {
      const buffer = Buffer.allocUnsafe(length);
      return readSync(fd!, buffer, 0, length, at[0] + offset) === length ? buffer : undefined;
    };
    let head = read(0, Math.min(HEAD_BYTES, at[1]));
    // a session of thousands of turns has a layout longer than the head: read twice as much until it and the start of
    // the JSON are in (not the whole line, many MB for such a session)
    let parsed = head && lineHead(head, head.length >= at[1], id);
    while (parsed === 'more' && head) {
      head = read(0, Math.min(at[1], head.length * 2));
      parsed = head && lineHead(head, head.length >= at[1], id);
    }
    if (!parsed || parsed === 'more') throw new Error('no layout');
    const { layout, json } = parsed;
    const open = fd;
    fd = undefined;
    // the bytes last read: the turn asked for and those after it, up to READ_AHEAD_BYTES (the chooser reads in order)
    let window: { from: number; bytes: Buffer } | undefined;
    let scratch: Buffer | undefined;
    const count = layout.length / LAYOUT_FIELDS;
    // where a read for turn `i` ends: past the last of the turns asked next that fit in READ_AHEAD_BYTES
    const readEnd = (i: number, from: number, next: ((j: number) => boolean) | undefined): number => {
      let end = from + layout[i * LAYOUT_FIELDS + 1];
      if (!next) return Math.min(at[1], Math.max(end, from + READ_AHEAD_BYTES));
      for (let j = i + 1; j < count; j++) {
        const last = json + layout[j * LAYOUT_FIELDS] + layout[j * LAYOUT_FIELDS + 1];
        if (last - from > READ_AHEAD_BYTES || last > at[1]) break;
        if (next(j)) end = last;
      }
      return end;
    };
    return {
      layout,
      turn(i, verify = true, next) {
        const offset = layout[i * LAYOUT_FIELDS];
        const length = layout[i * LAYOUT_FIELDS + 1];
        const from = json + offset;
        if (from + length > at[1]) return undefined;
        if (!window || from < window.from || from + length > window.from + window.bytes.length) {
          const size = readEnd(i, from, next) - from;
          // (one buffer for every read that fits: a read into new memory took twice as long)
          if (size <= READ_AHEAD_BYTES) scratch ??= Buffer.allocUnsafe(READ_AHEAD_BYTES);
          const bytes = size <= READ_AHEAD_BYTES ? scratch!.subarray(0, size) : Buffer.allocUnsafe(size);
          window = readSync(open, bytes, 0, size, at[0] + from) === size ? { from, bytes } : undefined;
          if (!window) return undefined;
        }
        const buffer = window.bytes.subarray(from - window.from, from - window.from + length);
        return !verify || crc32(buffer) === layout[i * LAYOUT_FIELDS + 3] ? buffer : undefined;
      },
      body() {
        const buffer = Buffer.allocUnsafe(at[1] - json);
        return readSync(open, buffer, 0, buffer.length, at[0] + json) === buffer.length ? buffer : undefined;
      },
      checkedBody() {
        const line = Buffer.allocUnsafe(at[1]);
        if (readSync(open, line, 0, line.length, at[0]) !== line.length) return undefined;
        return lineChecks(line) ? line.subarray(json) : undefined;
      },
      close: () => closeSync(open),
    };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

/**
 * The body of a turn's `"text"` string, escapes kept, decoded from the turn's JSON bytes (the rest of the JSON is not).
 * Any quote inside a string value is escaped, so the first `"text":"` is the key, and the first quote after it that no
 * backslash escapes ends the value (UTF-8 never writes a quote or a backslash byte inside another character).
 */
function textField(json: Buffer, encoding: 'utf8' | 'latin1'): string {
  const start = json.indexOf(TEXT_KEY);
  if (start === -1) return '';
  const from = start + TEXT_KEY.length;
  for (let end = json.indexOf(QUOTE, from); end !== -1; end = json.indexOf(QUOTE, end + 1)) {
    let slashes = 0;
    for (let k = end - 1; k >= from && json[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return json.toString(encoding, from, end);
  }
  return json.toString(encoding, from);
}
const CONVERSATION = TURN_KINDS.indexOf('conversation');
const TEXT_KEY = Buffer.from('"text":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The snippets `sessionSnippets` cuts from the parsed session, from the few turns of a raw session that can give them:
 * the chooser reads turns' JSON text (escapes kept) and only the chosen turns are parsed. Undefined when a turn's bytes
 * fail their checksum: the caller parses the session instead.
 */
export function findSnippetsRaw(raw: RawSession, sessionId: string, query: ParsedQuery, options: SnippetTurnOptions): Snippet[] | undefined {
  const { layout } = raw;
  const field = (i: number, k: number): number => layout[i * LAYOUT_FIELDS + k];
  const conversation = (i: number): boolean => field(i, 2) >> 4 === CONVERSATION;
  // the chooser reads the conversation first, then the other turns, each in order: a read takes those asked next
  const unchecked = (i: number): Buffer | undefined => {
    const kind = conversation(i);
    return raw.turn(i, false, (j) => conversation(j) === kind);
  };
  const source: TurnSource = {
    count: layout.length / LAYOUT_FIELDS,
    kind: (i) => TURN_KINDS[field(i, 2) >> 4],
    role: (i) => ROLES[field(i, 2) & 15],
    textLength: (i) => field(i, 4),
    // (scanned unchecked: the few turns chosen are read again, checked, before they are parsed and shown)
    text: (i) => {
      const bytes = unchecked(i);
      return bytes && textField(bytes, 'utf8');
    },
    utf8Bytes: (i) => {
      const bytes = unchecked(i);
      return bytes && textField(bytes, 'latin1');
    },
    escaped: true,
  };
  const chosen = chooseSnippetTurns(source, query, options);
  if (!chosen) return undefined;
  const turns: Turn[] = [];
  for (const i of chosen) {
    const bytes = raw.turn(i);
    if (!bytes) return undefined;
    const turn = JSON.parse(bytes.toString('utf8')) as Turn;
    turns.push(turn.id ? turn : { ...turn, id: `${sessionId}#${i}` });
  }
  return findSnippets(turns, query, { ...options, max: MAX_SNIPPETS });
}

/**
 * Whether a turn of a raw session (a prompt only, with `promptsOnly`) holds `matcher`'s text, without parsing the
 * session: a turn is decoded and parsed only when its JSON holds `needle` (the text as JSON writes it, case ignored:
 * in the bytes themselves where it is ASCII, folded-bytes.ts), then matched exactly; every turn is read in one read,
 * prompts one by one. Undefined when bytes fail their checksum or do not parse: the caller reads the session instead.
 */
export function rawTurnsHold(raw: RawSession, needle: string, matcher: RegExp, promptsOnly: boolean): boolean | undefined {
  const { layout } = raw;
  const holds = needleTest(needle);
  const body = promptsOnly ? undefined : raw.body();
  if (!promptsOnly) {
    if (!body) return undefined;
    if (!holds(body)) return false;
  }
  for (let i = 0; i < layout.length / LAYOUT_FIELDS; i++) {
    const [offset, length, flags, checksum] = layout.subarray(i * LAYOUT_FIELDS, i * LAYOUT_FIELDS + 4);
    if (promptsOnly && !isPrompt({ role: ROLES[flags & 15], kind: TURN_KINDS[flags >> 4] })) continue;
    const bytes = body ? body.subarray(offset, offset + length) : raw.turn(i);
    if (!bytes || bytes.length !== length || (body && crc32(bytes) !== checksum)) return undefined;
    if (!holds(bytes)) continue;
    try {
      if (matcher.test((JSON.parse(bytes.toString('utf8')) as Turn).text)) return true;
    } catch {
      return undefined;
    }
  }
  return false;
}

/** Whether bytes of JSON hold `needle`, case ignored: in the bytes where it is ASCII, in their text otherwise. */
function needleTest(needle: string): (bytes: Buffer) => boolean {
  if (foldable(needle)) {
    const search = foldedSearch(needle);
    return (bytes) => search(bytes) >= 0;
  }
  const pattern = new RegExp(escapeRegExp(needle), 'i');
  return (bytes) => pattern.test(bytes.toString('utf8'));
}
