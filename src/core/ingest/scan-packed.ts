/**
 * The walking thread's reply in columns (scan-worker.ts → scan-aside.ts): every root's files as one string, their states
 * in one typed array, and their archive entries' names and states alike. At 10,000 sessions the reply as objects was
 * 20,000 objects and 60,000 strings (3.6 MB) that the main thread copied one at a time when it arrived, 10-45 ms, and
 * made into a map of 10,000 more objects, 6-50 ms, both on a warm start's longest path; as columns it arrives as three
 * strings and two arrays, and an entry's check is made when it is asked for.
 */
import type { EntryCheck, EntryChecks, FileState, Scan } from './file-state.js';
import { scanOf } from './file-state.js';
import type { SourceRoot } from './sources/registry.js';

/** Between two paths or entry names: never in either. */
const SEPARATOR = '\0';

export interface PackedScan {
  /** Each root, with how many of the files below are its own (in order). */
  roots: { root: SourceRoot; count: number }[];
  /** Every file, in the roots' order, separated by NUL. */
  files: string;
  /** size, mtimeMs and ino of each file. */
  states: Float64Array;
  /** Each file's archive entry, where the walk stated them: its name, and its size (-1: no entry; NaN: not stated) and mtimeMs. */
  entries?: { names: string; states: Float64Array };
}

/** An archive entry as stated: its name, its size (-1: none) and its modification time; undefined: not stated. */
export type EntryState = [name: string, size: number, mtimeMs: number] | undefined;

/** `plan` in columns; `entryOf` states each file's archive entry. */
export function packScan(plan: Scan['plan'], entryOf?: (file: string) => EntryState): PackedScan {
  let count = 0;
  for (const { files } of plan) count += files.length;
  const paths: string[] = [];
  const states = new Float64Array(count * 3);
  const names: string[] = [];
  const entryStates = new Float64Array(entryOf ? count * 2 : 0);
  let i = 0;
  for (const { files } of plan)
    for (const f of files) {
      paths.push(f.file);
      states[3 * i] = f.size;
      states[3 * i + 1] = f.mtimeMs;
      states[3 * i + 2] = f.ino;
      if (entryOf) {
        const entry = entryOf(f.file);
        names.push(entry?.[0] ?? '');
        entryStates[2 * i] = entry ? entry[1] : NaN;
        entryStates[2 * i + 1] = entry ? entry[2] : 0;
      }
      i++;
    }
  return {
    roots: plan.map(({ root, files }) => ({ root, count: files.length })),
    files: paths.join(SEPARATOR),
    states,
    entries: entryOf && { names: names.join(SEPARATOR), states: entryStates },
  };
}

/** The scan `packed` holds, each file's state an object again; its entries' checks made as asked for. */
export function unpackScan(packed: PackedScan): Scan {
  const count = packed.states.length / 3;
  const paths = count ? packed.files.split(SEPARATOR) : [];
  if (paths.length !== count || packed.roots.reduce((n, r) => n + r.count, 0) !== count) throw new Error('the walk reply does not add up');
  const states = packed.states;
  const plan: Scan['plan'] = [];
  let i = 0;
  for (const { root, count: own } of packed.roots) {
    const files: FileState[] = [];
    for (const end = i + own; i < end; i++) files.push({ file: paths[i], size: states[3 * i], mtimeMs: states[3 * i + 1], ino: states[3 * i + 2] });
    plan.push({ root, files });
  }
  const scan = scanOf(plan);
  if (packed.entries) scan.entries = entryChecks(paths, packed.entries);
  return scan;
}

function entryChecks(paths: string[], entries: NonNullable<PackedScan['entries']>): EntryChecks {
  const names = paths.length ? entries.names.split(SEPARATOR) : [];
  const rows = new Map<string, number>();
  paths.forEach((path, row) => rows.set(path, row));
  const states = entries.states;
  return {
    get(file: string): EntryCheck | undefined {
      const row = rows.get(file);
      if (row === undefined || Number.isNaN(states[2 * row])) return undefined;
      const size = states[2 * row];
      return size < 0 ? { name: names[row] } : { name: names[row], state: [size, states[2 * row + 1]] };
    },
  };
}
