/**
 * The archive's line, in one place: how a line is written and how it is read back, whole or a turn at a time.
 *
 * - An entry's first line describes its transcript: `<crc>\t<JSON>` (encodeLine).
 * - A session line: `<crc>\t<layout, base64>\t<JSON>` (encodeSessionLine), the JSON with the turns last; the CRC-32
 *   covers everything after the first tab. The layout holds LAYOUT_FIELDS numbers per turn: where the turn's JSON lies
 *   from the JSON's start, its length, its role and kind, its own CRC-32 and the length of its text.
 * - Lines of version 1 are JSON alone, without a checksum; lines of version 2 have no layout.
 *
 * Read back whole (`decodeLine`: the checksum checked, then the JSON parsed), or turn by turn (`lineHead`: the layout
 * and where the JSON starts, from the first bytes of a line; store/session-layout.ts reads single turns through it and
 * checks each turn's checksum as it reads it).
 */
import { crc32 } from 'node:zlib';
import { turnFlags, type ParsedSession } from '../model.js';

/** A line as written: the checksum of what follows the first tab, a tab, the JSON (the entry's first line). */
export function encodeLine(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  return Buffer.concat([Buffer.from(`${crc32(body).toString(16).padStart(8, '0')}\t`, 'latin1'), body, Buffer.from('\n')]);
}

/** Numbers per turn in a session line's layout: offset and length of the turn's JSON, role and kind, its CRC-32, the length of its text. */
export const LAYOUT_FIELDS = 5;

/**
 * A session line: `<crc>\t<layout, base64>\t<JSON>`, the JSON with the turns last, and the layout LAYOUT_FIELDS
 * numbers per turn (offset from the JSON's start and length of its JSON, role and kind, checksum), see session-layout.ts.
 * The line is encoded straight into one buffer of its size: a first load writes the whole history through here, and
 * each copy of a large line is memory touched for the first time.
 */
export function encodeSessionLine(session: ParsedSession): Buffer {
  const { turns, ...meta } = session;
  const head = `${JSON.stringify({ ...meta, sourceDeleted: undefined }).slice(0, -1)},"turns":[`;
  const jsons = turns.map((turn) => JSON.stringify(turn));
  let jsonBytes = Buffer.byteLength(head, 'utf8') + Math.max(0, turns.length - 1) + 2;
  for (const json of jsons) jsonBytes += Buffer.byteLength(json, 'utf8');
  const layout = new Uint32Array(turns.length * LAYOUT_FIELDS);
  const layoutChars = 4 * Math.ceil(layout.byteLength / 3);
  const start = 9 + layoutChars + 1;
  const line = Buffer.allocUnsafe(start + jsonBytes + 1);
  let at = start + line.write(head, start, 'utf8');
  jsons.forEach((json, i) => {
    if (i) line[at++] = 0x2c;
    const length = line.write(json, at, 'utf8');
    const l = i * LAYOUT_FIELDS;
    layout[l] = at - start;
    layout[l + 1] = length;
    layout[l + 2] = turnFlags(turns[i]);
    layout[l + 3] = crc32(line.subarray(at, at + length));
    layout[l + 4] = turns[i].text.length;
    at += length;
  });
  line[at++] = 0x5d; // ]
  line[at++] = 0x7d; // }
  line[8] = 9;
  line.write(Buffer.from(layout.buffer, layout.byteOffset, layout.byteLength).toString('base64'), 9, 'latin1');
  line[start - 1] = 9;
  line.write(crc32(line.subarray(9, at)).toString(16).padStart(8, '0'), 0, 'latin1');
  line[at] = 0x0a;
  return line;
}

const CHECKED = /^[0-9a-f]{8}\t/;

/** Whether a line of version 3 (its bytes, without the newline) matches the checksum it starts with. */
export function lineChecks(line: Buffer): boolean {
  return CHECKED.test(line.toString('latin1', 0, 9)) && crc32(line.subarray(9)) === parseInt(line.toString('latin1', 0, 8), 16);
}

/**
 * Where the JSON of a line lies in `bytes`, after checking the line's checksum (throws when it does not match).
 * Lines of version 1 are all JSON, without a checksum; lines of version 3 put the turn layout before the JSON.
 */
function jsonPart(bytes: Buffer, [offset, length]: [number, number]): [number, number] {
  const head = bytes.toString('latin1', offset, offset + Math.min(9, length));
  if (!CHECKED.test(head)) return [offset, length];
  if (!lineChecks(bytes.subarray(offset, offset + length))) throw new Error('checksum does not match');
  const body = bytes.subarray(offset + 9, offset + length);
  if (body[0] === 0x7b) return [offset + 9, length - 9];
  const tab = body.indexOf(9);
  if (tab === -1) throw new Error('no layout separator');
  return [offset + 9 + tab + 1, length - 9 - tab - 1];
}

/** The JSON value of one line; throws when its checksum does not match (lines of version 1 have none). */
export function decodeLine(bytes: Buffer, at: [number, number]): unknown {
  const [start, length] = jsonPart(bytes, at);
  return JSON.parse(bytes.toString('utf8', start, start + length));
}

/** Bytes of the JSON after the layout that hold the session's id. */
export const ID_BYTES = 400;

/**
 * The layout of a session line and where its JSON starts, from the line's first bytes (`head`; `whole`: they are the
 * whole line). 'more' when the layout and the start of the JSON (ID_BYTES) are not all in `head` yet; undefined when
 * the line has no layout (an older line), holds another session than `id`, or its layout is damaged. The line's own
 * checksum is not checked: each turn's is, as it is read.
 */
export function lineHead(head: Buffer, whole: boolean, id: string): { layout: Uint32Array; json: number } | 'more' | undefined {
  if (!CHECKED.test(head.toString('latin1', 0, 9)) || head[9] === 0x7b) return undefined;
  const tab = head.indexOf(9, 9);
  if ((tab === -1 || tab + ID_BYTES > head.length) && !whole) return 'more';
  if (tab === -1) return undefined;
  const json = tab + 1;
  if (!head.toString('utf8', json, Math.min(json + ID_BYTES, head.length)).startsWith(`{"id":${JSON.stringify(id)},`)) return undefined;
  const packed = Buffer.from(head.toString('latin1', 9, tab), 'base64');
  if (packed.byteLength % (4 * LAYOUT_FIELDS) !== 0) return undefined;
  return { layout: new Uint32Array(packed.buffer, packed.byteOffset, packed.byteLength / 4), json };
}
