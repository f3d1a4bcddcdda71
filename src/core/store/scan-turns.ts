/**
 * A session's turns for a scan that tests every turn for the query (the workspace view): their roles and kinds at
 * hand, a turn parsed only when it may hold a match or stands beside one. From an archive line with a layout, the
 * line is read once, its checksum checked, and looked through for the query's needles (its words as JSON
 * writes them, case ignored, in the bytes read one to a character); only the turns where one lies are decoded and
 * parsed. Decoding and parsing every turn of every matching session was most of the view's time (25 s of a search
 * over 7,000 sessions).
 */
import { ROLES, TURN_KINDS, type Role, type Turn, type TurnKind } from '../model.js';
import { LAYOUT_FIELDS } from './archive-line.js';
import { foldable } from './folded-bytes.js';
import { escapeRegExp } from '../regexp.js';
import type { RawSession } from './session-layout.js';

export interface ScanTurns {
  readonly count: number;
  role(i: number): Role;
  kind(i: number): TurnKind;
  /** False where turn `i` cannot hold a match (none of the needles lies in it); true where it may. */
  mayHold(i: number): boolean;
  /** Turn `i`, or undefined where its bytes do not parse (the session is damaged). */
  turn(i: number): Turn | undefined;
}

/** Turns already parsed (in memory, in the cache, or read whole): every one may hold a match. */
export function parsedTurns(turns: readonly Turn[]): ScanTurns {
  return { count: turns.length, role: (i) => turns[i].role, kind: (i) => turns[i].kind, mayHold: () => true, turn: (i) => turns[i] };
}

/**
 * The turns of a raw session, its line read in one read and its checksum checked; `needles` (printable ASCII,
 * lower case: a match holds one of them) mark the turns that may hold a match, every turn where there are none.
 * Undefined where the line cannot be read or does not match its checksum.
 */
export function rawScanTurns(raw: RawSession, sessionId: string, needles: readonly string[] | undefined): ScanTurns | undefined {
  // the whole line checked, not only the turns parsed: a damaged turn that no longer holds the words still held them
  // (the session is then read whole, which finds the damage, says so and reads the transcript again)
  const body = raw.checkedBody();
  if (!body) return undefined;
  const { layout } = raw;
  const count = layout.length / LAYOUT_FIELDS;
  const field = (i: number, k: number): number => layout[i * LAYOUT_FIELDS + k];
  const marked = needles ? markTurns(body, layout, count, needles) : undefined;
  const parsed = new Map<number, Turn | undefined>();
  return {
    count,
    role: (i) => ROLES[field(i, 2) & 15],
    kind: (i) => TURN_KINDS[field(i, 2) >> 4],
    mayHold: (i) => !marked || marked[i] === 1,
    turn(i) {
      if (parsed.has(i)) return parsed.get(i);
      let turn: Turn | undefined;
      try {
        const read = JSON.parse(body.toString('utf8', field(i, 0), field(i, 0) + field(i, 1))) as Turn;
        turn = typeof read?.text === 'string' ? (read.id ? read : { ...read, id: `${sessionId}#${i}` }) : undefined;
      } catch {
        turn = undefined;
      }
      parsed.set(i, turn);
      return turn;
    },
  };
}

/**
 * Which turns' JSON holds any of the needles (1): one case-blind pattern run over the line's bytes read one to a
 * character (no other character folds to printable ASCII ignoring case without the `u` flag), a match marking the turn
 * it lies in and the search going on from that turn's end.
 */
function markTurns(body: Buffer, layout: Uint32Array, count: number, needles: readonly string[]): Uint8Array {
  const marked = new Uint8Array(count);
  const text = body.toString('latin1');
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'), 'gi');
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    const i = turnAt(layout, count, found.index);
    const end = i < 0 ? 0 : layout[i * LAYOUT_FIELDS] + layout[i * LAYOUT_FIELDS + 1];
    // (a needle found between turns, in the line's own JSON, marks none)
    if (found.index < end) marked[i] = 1;
    pattern.lastIndex = Math.max(found.index + 1, end);
  }
  return marked;
}

/** The last of the layout's `count` turns starting at or before `at` (-1 where none does). */
function turnAt(layout: Uint32Array, count: number, at: number): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (layout[mid * LAYOUT_FIELDS] <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * The needles worth looking for, or undefined where one is not printable ASCII (then every turn is read): lower case,
 * each once, and none that holds another (a turn holding "retrying" holds "retry").
 */
export function scanNeedles(needles: readonly string[]): string[] | undefined {
  if (!needles.length || !needles.every((n) => n.length > 0 && foldable(n))) return undefined;
  const unique = [...new Set(needles.map((n) => n.toLowerCase()))];
  return unique.filter((n) => !unique.some((other) => other !== n && n.includes(other)));
}
