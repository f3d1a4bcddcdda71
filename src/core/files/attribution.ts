/**
 * Which edit wrote the lines of a file as they are now: each agent edit's written text is looked for in the file on
 * disk, line by line (exactly, then with whitespace normalised), and the latest edit whose text still matches a line
 * names it. A line no edit matches was written by hand, or changed since: that is said, never guessed.
 */
import type { Turn } from '../model.js';
import { patchFiles } from './touches.js';

export interface WrittenEdit<T> {
  /** What the caller wants back for the lines this edit wrote (its session and turn). */
  ref: T;
  /** When it was written: later edits win. */
  at: string;
  blocks: string[];
}

export interface LineSegment<T> {
  /** 1-based, inclusive. */
  from: number;
  to: number;
  /** The edit that wrote these lines, absent when none matches. */
  ref?: T;
  match?: 'exact' | 'whitespace';
}

/** A line too plain to say by itself who wrote it (`}`, a blank line): matched only inside a run of others. */
const TRIVIAL = 3;
/** Lines that occur more often than this in the file are not used to start a match (`return;`, `});`). */
const MAX_SEEDS = 40;
/** A line this long, found once in the file, is named by itself (a signature kept while the body changed). */
const DISTINCT = 16;

const norm = (line: string): string => line.replace(/\s+/g, ' ').trim();

/** The text a turn wrote to a file: its edits' new text, a Write's content, an apply_patch's added lines for that file. */
export function writtenBlocks(turn: Pick<Turn, 'tool' | 'text' | 'written'>, matches: (path: string) => boolean): string[] {
  if (turn.written?.length) return turn.written;
  if (turn.tool === 'apply_patch' || turn.text.startsWith('*** Begin Patch'))
    return patchFiles(turn.text)
      .filter((f) => matches(f.path) && f.added.length)
      .map((f) => f.added.join('\n'));
  if (turn.tool && /^(write|write_?file|write_to_file|create_?file)$/i.test(turn.tool)) {
    const newline = turn.text.indexOf('\n');
    return newline > 0 ? [turn.text.slice(newline + 1)] : [];
  }
  return [];
}

/**
 * The lines `from`..`to` of `text` (1-based, inclusive), split into runs each written by one edit (the latest that
 * still matches) or by none.
 */
export function attributeLines<T>(text: string, edits: readonly WrittenEdit<T>[], from: number, to: number): LineSegment<T>[] {
  const lines = text.split(/\r?\n/);
  const last = Math.min(to, lines.length);
  const owner: (number | undefined)[] = new Array(lines.length);
  const exact: boolean[] = new Array(lines.length);
  const normalised = lines.map(norm);
  const positions = new Map<string, number[]>();
  normalised.forEach((n, i) => {
    if (n.length <= TRIVIAL) return;
    const at = positions.get(n);
    if (at) at.push(i);
    else positions.set(n, [i]);
  });
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => a.e.at.localeCompare(b.e.at) || a.i - b.i);
  for (const { e, i: index } of order) {
    for (const block of e.blocks) {
      for (const [start, length, same] of matchedRuns(block.split(/\r?\n/), lines, normalised, positions)) {
        for (let k = start; k < start + length; k++) {
          owner[k] = index;
          exact[k] = same;
        }
      }
    }
  }
  const segments: LineSegment<T>[] = [];
  for (let line = Math.max(1, from); line <= last; line++) {
    const at = owner[line - 1];
    const match = at === undefined ? undefined : exact[line - 1] ? 'exact' : 'whitespace';
    const previous = segments[segments.length - 1];
    if (previous && previous.to === line - 1 && previous.ref === (at === undefined ? undefined : edits[at].ref) && previous.match === match) previous.to = line;
    else segments.push({ from: line, to: line, ...(at === undefined ? {} : { ref: edits[at].ref, match }) });
  }
  return segments;
}

/** Runs of the file's lines a block's lines match in order: [first line index, length, every line exactly equal]. */
function matchedRuns(block: string[], lines: string[], normalised: string[], positions: Map<string, number[]>): [number, number, boolean][] {
  const wanted = block.map(norm);
  const plain = wanted.filter((w) => w.length > TRIVIAL).length;
  const runs: [number, number, boolean][] = [];
  let i = 0;
  while (i < wanted.length) {
    const seeds = wanted[i].length > TRIVIAL ? positions.get(wanted[i]) : undefined;
    let best: [number, number, boolean] | undefined;
    if (seeds && seeds.length <= MAX_SEEDS) {
      for (const j of seeds) {
        let k = 0;
        let same = true;
        while (i + k < wanted.length && j + k < lines.length && wanted[i + k] === normalised[j + k]) {
          same &&= block[i + k].trimEnd() === lines[j + k].trimEnd();
          k++;
        }
        if (!best || k > best[1]) best = [j, k, same];
      }
    }
    // one line alone says who wrote it when the edit was that line (a one-line change), or when it is distinctive: long,
    // and found once in the file
    const alone = best?.[1] === 1 && (plain <= 1 || (wanted[i].length >= DISTINCT && seeds?.length === 1));
    if (best && (best[1] >= 2 || alone)) {
      runs.push(best);
      i += best[1];
    } else i++;
  }
  return runs;
}
