/**
 * The walking thread's replies in columns (scan-worker.ts → scan-aside.ts): every root's files as one string, their states
 * in one typed array, their archive entries' names as one string; then, in a second reply, the entries' states in another
 * array. At 10,000 sessions the reply as objects was 20,000 objects and 60,000 strings (3.6 MB) that the main thread
 * copied one at a time when it arrived, 10-45 ms, and made into a map of 10,000 more objects, 6-50 ms, both on a warm
 * start's longest path; as columns it arrives as a few strings and arrays, and an entry's check is made when asked for.
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
  /** Each file's archive entry name, separated by NUL, where the thread had the archive's folder. */
  entryNames?: string;
}

/** An archive entry as stated: its size (-1: none) and its modification time; undefined: not stated. */
export type EntryState = [size: number, mtimeMs: number] | undefined;

/** A walk packed to be sent, with the arrays it was packed from (the thread keeps them for its second reply). */
export interface PackedWalk {
  packed: PackedScan;
  /** Every file, in the packed order. */
  paths: string[];
  /** Each file's archive entry name, where one was asked for. */
  names?: string[];
}

/** `plan` in columns, with each file's archive entry name where `entryName` is given. */
export function packScan(plan: Scan['plan'], entryName?: (file: string) => string): PackedWalk {
  let count = 0;
  for (const { files } of plan) count += files.length;
  const paths: string[] = [];
  const states = new Float64Array(count * 3);
  let i = 0;
  for (const { files } of plan)
    for (const f of files) {
      paths.push(f.file);
      states[3 * i] = f.size;
      states[3 * i + 1] = f.mtimeMs;
      states[3 * i + 2] = f.ino;
      i++;
    }
  const names = entryName && paths.map(entryName);
  const packed: PackedScan = {
    roots: plan.map(({ root, files }) => ({ root, count: files.length })),
    files: paths.join(SEPARATOR),
    states,
    entryNames: names?.join(SEPARATOR),
  };
  return { packed, paths, names };
}

/** The entries' states of a packed walk's files, in its order: size (-1: no entry; NaN: not stated), mtimeMs. */
export function packEntryStates({ paths, names }: PackedWalk, stateOf: (file: string, name: string) => EntryState): Float64Array {
  const out = new Float64Array(paths.length * 2);
  for (let i = 0; i < paths.length; i++) {
    const state = names ? stateOf(paths[i], names[i]) : undefined;
    out[2 * i] = state ? state[0] : NaN;
    out[2 * i + 1] = state ? state[1] : 0;
  }
  return out;
}

/**
 * The scan `packed` holds, each file's state an object again; with its entries' names, and their checks once `entryStates`
 * (the second reply) arrives, made as asked for.
 */
export function unpackScan(packed: PackedScan, later: { unnamed?: Promise<string[] | undefined>; entryStates?: Promise<Float64Array | undefined> } = {}): Scan {
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
  if (packed.entryNames === undefined) return scanOf(plan);
  const names = count ? packed.entryNames.split(SEPARATOR) : [];
  if (names.length !== count) throw new Error('the walk reply does not add up');
  const rows = new Map<string, number>();
  paths.forEach((path, row) => rows.set(path, row));
  // (the set of files found is the rows' keys)
  const scan: Scan = { plan, seen: { has: (file) => rows.has(file), size: rows.size, [Symbol.iterator]: () => rows.keys() } };
  scan.entryName = (file) => {
    const row = rows.get(file);
    return row === undefined ? undefined : names[row];
  };
  scan.entries = later.entryStates?.then((stated) => (stated?.length === count * 2 ? entryChecks(rows, names, stated) : undefined));
  scan.unnamed = later.unnamed;
  return scan;
}

function entryChecks(rows: Map<string, number>, names: string[], states: Float64Array): EntryChecks {
  return {
    get(file: string): EntryCheck | undefined {
      const row = rows.get(file);
      if (row === undefined || Number.isNaN(states[2 * row])) return undefined;
      const size = states[2 * row];
      return size < 0 ? { name: names[row] } : { name: names[row], state: [size, states[2 * row + 1]] };
    },
  };
}
