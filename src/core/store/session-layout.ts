/**
 * Snippets without parsing a whole session. An archive line of version 3 carries the session's turn layout: for each
 * turn, where its JSON lies in the line, its role and its kind. A search reads the line's bytes, looks for the query
 * words turn by turn in the raw bytes (conversation turns first, tool output only when the conversation does not hold
 * enough), parses only the few turns that can give the best snippets, and cuts the snippets from those. A session of
 * many MB costs a read and a scan of its conversation, not a JSON.parse of everything it holds.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { ROLES, TURN_KINDS, type Role, type Turn, type TurnKind } from '../model.js';
import type { ParsedQuery } from '../index/query.js';
import { findSnippets, MAX_SNIPPETS, OTHER_CHARS_SCANNED, type Snippet } from '../index/snippets.js';
import { crc32 } from 'node:zlib';
import { LAYOUT_FIELDS } from './archive.js';

/** A session's archive line opened for reading single turns: its layout, and reads of one turn's JSON at a time. */
export interface RawSession {
  /** LAYOUT_FIELDS numbers per turn: offset (from the JSON's start) and length of its JSON, flags, checksum, text length. */
  layout: Uint32Array;
  /** The JSON bytes of turn `i`, or undefined when they do not match their checksum. */
  turn(i: number): Buffer | undefined;
  close(): void;
}

/** Bytes of a line read first: the checksum, the layout of up to a few thousand turns, the session's id. */
const HEAD_BYTES = 64 * 1024;

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
    if (!head || !/^[0-9a-f]{8}\t/.test(head.toString('latin1', 0, 9)) || head[9] === 0x7b) throw new Error('no layout');
    let tab = head.indexOf(9, 9);
    if (tab === -1 && at[1] > head.length) {
      head = read(0, at[1]);
      tab = head?.indexOf(9, 9) ?? -1;
    }
    if (!head || tab === -1) throw new Error('no layout');
    const json = tab + 1;
    if (!head.toString('utf8', json, Math.min(json + 400, head.length)).startsWith(`{"id":${JSON.stringify(id)},`)) throw new Error('another session');
    const packed = Buffer.from(head.toString('latin1', 9, tab), 'base64');
    if (packed.byteLength % (4 * LAYOUT_FIELDS) !== 0) throw new Error('layout damaged');
    const layout = new Uint32Array(packed.buffer, packed.byteOffset, packed.byteLength / 4);
    const open = fd;
    fd = undefined;
    return {
      layout,
      turn(i) {
        const [offset, length, , checksum] = layout.subarray(i * LAYOUT_FIELDS, i * LAYOUT_FIELDS + LAYOUT_FIELDS);
        if (json + offset + length > at[1]) return undefined;
        const buffer = Buffer.allocUnsafe(length);
        if (readSync(open, buffer, 0, length, at[0] + json + offset) !== length || crc32(buffer) !== checksum) return undefined;
        return buffer;
      },
      close: () => closeSync(open),
    };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

const isWordByte = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c >= 0x80;

/** Whether the character at `i` of a turn's JSON text ends or starts a word (a JSON escape such as `\n` is a separator). */
function boundary(text: string, i: number, before: boolean): boolean {
  if (i < 0 || i >= text.length) return true;
  if (!isWordByte(text.charCodeAt(i))) return true;
  if (before && 'ntrbf'.includes(text[i])) {
    let slashes = 0;
    for (let k = i - 1; k >= 0 && text[k] === '\\'; k--) slashes++;
    return slashes % 2 === 1;
  }
  return false;
}

/** Thrown inside findSnippetsRaw when a turn's bytes fail their checksum: the caller parses the session instead. */
class Damaged extends Error {}

/**
 * The snippets `findSnippets` cuts from all the turns, from the few turns of a raw session that can give them; undefined
 * when the raw bytes cannot answer (a query word that is not plain ASCII, no turn found, a turn that fails its
 * checksum), so the caller parses the session. Conversation turns are scanned first; tool output only when fewer than
 * MAX_SNIPPETS conversation turns hold every word, and then at most OTHER_BYTES_SCANNED of it.
 */
export function findSnippetsRaw(raw: RawSession, sessionId: string, query: ParsedQuery, options: { role?: Role; kind?: TurnKind; weight?: (term: string) => number }): Snippet[] | undefined {
  const words = [...new Set([...query.terms, ...query.phrases.flat()].map((w) => w.toLowerCase()))];
  if (!words.length || words.some((w) => !/^[a-z0-9]+$/.test(w))) return undefined;
  const weight = options.weight ?? (() => 1);
  const weights = words.map((w) => weight(w) || 1);
  const best = weights.reduce((a, b) => a + b, 0);
  const pattern = new RegExp(words.join('|'), 'gi');
  const { layout } = raw;
  const turns = layout.length / LAYOUT_FIELDS;
  const kindOf = (i: number): TurnKind => TURN_KINDS[layout[i * LAYOUT_FIELDS + 2] >> 4];
  const bytes = new Map<number, Buffer>();
  const texts = new Map<number, Turn>();
  const parse = (index: number): Turn => {
    let turn = texts.get(index);
    if (!turn) {
      const json = bytes.get(index) ?? raw.turn(index);
      if (!json) throw new Damaged();
      turn = JSON.parse(json.toString('utf8')) as Turn;
      if (!turn.id) turn = { ...turn, id: `${sessionId}#${index}` };
      texts.set(index, turn);
    }
    return turn;
  };
  const textLength = (index: number): number => layout[index * LAYOUT_FIELDS + 4];
  const scored: { index: number; score: number }[] = [];
  const scan = (index: number): void => {
    const flags = layout[index * LAYOUT_FIELDS + 2];
    const kind = TURN_KINDS[flags >> 4];
    if ((options.role && ROLES[flags & 15] !== options.role) || (options.kind && kind !== options.kind)) return;
    const json = raw.turn(index);
    if (!json) throw new Damaged();
    const text = json.toString('latin1');
    const found = new Set<string>();
    pattern.lastIndex = 0;
    let examined = 0;
    for (let m = pattern.exec(text); m && examined < 200 && found.size < words.length; m = pattern.exec(text), examined++) {
      if (boundary(text, m.index - 1, true) && boundary(text, m.index + m[0].length, false)) found.add(m[0].toLowerCase());
    }
    if (!found.size) return;
    let score = kind === 'conversation' ? 0.01 : 0;
    words.forEach((w, k) => (score += found.has(w) ? weights[k] : 0));
    scored.push({ index, score });
    bytes.set(index, json);
  };
  try {
    for (let i = 0; i < turns; i++) if (kindOf(i) === 'conversation') scan(i);
    if (scored.filter((s) => s.score >= best).length < MAX_SNIPPETS) {
      // The same turns findSnippets looks at: the budget counts characters of text (the layout keeps each turn's).
      let budget = OTHER_CHARS_SCANNED;
      for (let i = 0; i < turns && budget > 0; i++) {
        if (kindOf(i) === 'conversation') continue;
        scan(i);
        budget -= textLength(i);
      }
    }
  } catch (err) {
    if (err instanceof Damaged) return undefined;
    throw err;
  }
  if (!scored.length) return undefined;
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  // A few more than shown, so snippets that come out the same text still leave enough distinct ones.
  const chosen = scored.slice(0, MAX_SNIPPETS * 2).sort((a, b) => a.index - b.index);
  let parsed: Turn[];
  try {
    parsed = chosen.map(({ index }) => parse(index));
  } catch (err) {
    if (err instanceof Damaged) return undefined;
    throw err;
  }
  return findSnippets(parsed, query, { ...options, max: MAX_SNIPPETS });
}
