/**
 * The sessions' fields a start does not read, kept out of the snapshot's header (layout 10): one JSON list per session,
 * its values in the order the header names them, the lists one after another in a section of their own, and where each
 * starts in another. A start reads the section's bytes (checked by their checksum) and parses nothing of them; a
 * session's list is parsed when the session is made (library/restored-sessions.ts). At 50,000 sessions the header was
 * 36 MB of JSON whose parse, and the collector moving what it made, was the longest step of a warm start; what every
 * start reads of every session (its id and file, the acronyms queries expand with, the lines that could not be read,
 * where its turns lie) stays in the header's columns (header-columns.ts).
 */

import { asciiJson } from './snapshot-writer.js';

/** The rows of every session: `text` holds session i's JSON list in bytes `starts[i] .. starts[i + 1]`, in ASCII. */
export interface SessionRows {
  text: Buffer;
  starts: Uint32Array;
}

/** Fields every start reads of every session (or a restore checks): kept in the header's columns, never in rows. */
const IN_COLUMNS = ['id', 'file', 'acronyms', 'unreadLines', 'sourceDeleted', 'parentId'] as const;
export const COLUMN_FIELDS: ReadonlySet<string> = new Set(IN_COLUMNS);
/** The fields kept in columns held as the session has them (the id and file aside): read of every session cheaply. */
export type PlainField = Exclude<(typeof IN_COLUMNS)[number], 'id' | 'file'>;

/** Rows of values written as JSON lists, characters beyond ASCII escaped (so that a byte is a character). */
export function packRows(count: number, values: (i: number) => unknown[]): SessionRows {
  const starts = new Uint32Array(count + 1);
  const pieces: Buffer[] = [];
  let text = '';
  let at = 0;
  for (let i = 0; i < count; i++) {
    const row = asciiJson(JSON.stringify(values(i)));
    text += row;
    at += row.length;
    starts[i + 1] = at;
    if (text.length >= 1 << 20) {
      pieces.push(Buffer.from(text, 'latin1'));
      text = '';
    }
  }
  pieces.push(Buffer.from(text, 'latin1'));
  return { text: Buffer.concat(pieces), starts };
}

/**
 * Row i of `rows` as a list of `width` values, parsed when asked (the last one asked is kept: a session is made from
 * several of its values in turn). Throws where the rows do not add up to `count` sessions; a row that is not a list of
 * `width` values throws when asked (the section's checksum held: only a writer's fault makes one).
 */
export function rowReader(rows: SessionRows, count: number, width: number): (i: number) => unknown[] {
  const { text, starts } = rows;
  if (starts.length !== count + 1 || starts[0] !== 0 || starts[count] > text.length) throw new Error("the header's session rows do not add up");
  for (let i = 0; i < count; i++) if (starts[i] > starts[i + 1]) throw new Error("the header's session rows do not add up");
  let last = -1;
  let values: unknown[] = [];
  return (i) => {
    if (i === last) return values;
    const row: unknown = JSON.parse(text.toString('latin1', starts[i], starts[i + 1]));
    if (!Array.isArray(row) || row.length !== width) throw new Error(`the header's row of session ${i} is damaged`);
    [last, values] = [i, row];
    return values;
  };
}
