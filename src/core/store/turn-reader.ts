/**
 * A session's turns one at a time, for the turn store (turn-store.ts): where they are on disk (an archive line with a
 * layout), each turn is read and parsed alone, so a scan of a session of many MB holds one turn at a time, not the
 * whole session parsed; where they are at hand, from memory.
 */
import { ROLES, TURN_KINDS, type Role, type Turn, type TurnKind } from '../model.js';
import { LAYOUT_FIELDS } from './archive-line.js';
import type { RawSession } from './session-layout.js';

export interface TurnReader {
  readonly count: number;
  kind(i: number): TurnKind | undefined;
  role(i: number): Role | undefined;
  /** Turn `i`, or undefined when it is out of range or its bytes on disk fail their checksum (`damaged` says so). */
  get(i: number): Turn | undefined;
  /** Whether a turn read from disk failed its checksum (the store's `all` then logs it and queues the transcript). */
  readonly damaged: boolean;
  /** Whether the turns are read from disk one by one (their timestamps are then only on the turns `get` returns). */
  readonly onDisk: boolean;
  close(): void;
}

/** A reader of turns held in memory. */
export function memoryReader(turns: readonly Turn[]): TurnReader {
  return {
    count: turns.length,
    kind: (i) => turns[i]?.kind,
    role: (i) => turns[i]?.role,
    get: (i) => turns[i],
    damaged: false,
    onDisk: false,
    close: () => undefined,
  };
}

/** A reader of the turns of session `id` in its archive line, opened as `raw`; close it when done. */
export function diskReader(id: string, raw: RawSession): TurnReader {
  const { layout } = raw;
  const count = layout.length / LAYOUT_FIELDS;
  const flags = (i: number): number | undefined => (i >= 0 && i < count ? layout[i * LAYOUT_FIELDS + 2] : undefined);
  let damaged = false;
  return {
    count,
    kind: (i) => TURN_KINDS[(flags(i) ?? -16) >> 4],
    role: (i) => ROLES[(flags(i) ?? -1) & 15],
    get(i) {
      if (i < 0 || i >= count) return undefined;
      // (turns are mostly read in order: a read takes the ones after it too, up to the read-ahead)
      const bytes = raw.turn(i, true, (j) => j > i);
      if (!bytes) {
        damaged = true;
        return undefined;
      }
      const turn = JSON.parse(bytes.toString('utf8')) as Turn;
      return turn.id ? turn : { ...turn, id: `${id}#${i}` };
    },
    get damaged() {
      return damaged;
    },
    onDisk: true,
    close: () => raw.close(),
  };
}
