/**
 * A session's turns one at a time: where they are on disk (an archive line with a layout, not in the turn cache), each
 * turn is read and parsed alone, so a scan of a session of many MB holds one turn at a time, not the whole session
 * parsed, and does not push what answers keep using out of the cache; where they are at hand, from memory. The one
 * place besides `session.turns` that turns are read from, for the answers that need some turns or every turn once.
 */
import { ROLES, TURN_KINDS, type Role, type Session, type Turn, type TurnKind } from '../model.js';
import { LAYOUT_FIELDS } from './archive.js';
import { rawArchived } from './turns.js';

export interface TurnReader {
  readonly count: number;
  kind(i: number): TurnKind | undefined;
  role(i: number): Role | undefined;
  /** Turn `i`, or undefined when it is out of range or its bytes on disk fail their checksum (`damaged` says so). */
  get(i: number): Turn | undefined;
  /** Whether a turn read from disk failed its checksum (`session.turns` then logs it and queues the transcript). */
  readonly damaged: boolean;
  /** Whether the turns are read from disk one by one (their timestamps are then only on the turns `get` returns). */
  readonly onDisk: boolean;
  close(): void;
}

/** Opens a session's turns for reading one at a time; close it when done. */
export function openTurnReader(session: Session): TurnReader {
  const raw = rawArchived(session);
  if (!raw) {
    const turns = session.turns;
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
      return turn.id ? turn : { ...turn, id: `${session.id}#${i}` };
    },
    get damaged() {
      return damaged;
    },
    onDisk: true,
    close: () => raw.close(),
  };
}

/**
 * Visits a session's turns in order (those `only` keeps, by kind and role, when given), one at a time: a turn read
 * from disk is let go once visited. Where a turn on disk is damaged, the rest come from `session.turns`: it finds the
 * damage too, logs it and queues the transcript to be read again, and holds no turns until then.
 */
export function forEachTurn(session: Session, visit: (turn: Turn, index: number) => void, only?: (kind: TurnKind, role: Role) => boolean): void {
  const reader = openTurnReader(session);
  let i = 0;
  try {
    for (; i < reader.count; i++) {
      const kind = reader.kind(i);
      const role = reader.role(i);
      if (only && kind && role && !only(kind, role)) continue;
      const turn = reader.get(i);
      if (!turn) break;
      visit(turn, i);
    }
  } finally {
    reader.close();
  }
  if (!reader.damaged) return;
  const turns = session.turns;
  for (; i < turns.length; i++) if (!only || only(turns[i].kind, turns[i].role)) visit(turns[i], i);
}
