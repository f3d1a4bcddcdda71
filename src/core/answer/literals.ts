/**
 * Words typed as one in a query (flags, paths, identifiers: `--no-verify`, `src/app.ts`, `MockRepoMap`): the best
 * candidates by words are looked at for them, and those holding them go first (search.ts). A literal is held where the
 * index says so; otherwise a candidate's title and turns are read for it, a budget of archive bytes per query.
 */
import { hasCjk, LETTER_OR_DIGIT, queryTerms, tokenize } from '../index/tokenize.js';
import { literalMatcher } from '../index/snippets.js';
import { jsonText } from '../index/snippet-turns.js';
import { uniqueSlots } from '../index/ranking.js';
import type { Scored } from '../index/engine.js';
import { isPrompt, type Session, type Turn } from '../model.js';
import { keptWord } from '../semantic/asked-index.js';
import { rawTurnsHold, type RawSession } from '../store/session-layout.js';
import type { TurnStore } from '../store/turn-store.js';
import type { QueryPlan } from './search.js';
import type { LibraryView } from './view.js';

/** Sessions holding every literal after which the others' bodies are not read for them (whatever the limit). */
const FILLED = 20;
/** Candidates looked at for words typed as one (flags, paths, identifiers): those holding them go first. */
export const LITERAL_WINDOW = 20;
/**
 * How far down the ranking by words a session whose user asked a literal's words is also looked at: a flag made of
 * common words (`--read`, `--edit-format`) is printed by the help text and logs of many sessions that rank above it.
 */
export const LITERAL_DEPTH = 100;
/** Archive bytes read for literals per query, past which bodies are not read (transcript sizes are what is counted). */
const BODY_BYTES = 16 * 1024 * 1024;
/** A word of letters or digits only. */

/**
 * The best candidates scored so that sessions holding more of the query's literal words come first, and among those,
 * sessions whose user typed them (in a prompt or the title): an identifier is looked for where it was asked about, not
 * where a log or a file read printed it. Each such rank is a band of the relevance, the words' score placing a session
 * inside its band.
 */
export function literalsFirst(lib: LibraryView, plan: QueryPlan, hits: Scored[], looked: (h: Scored, i: number) => boolean): Scored[] {
  const slots = uniqueSlots(plan.slots);
  const slotOf = (term: string | undefined): number => (term === undefined ? -1 : slots.findIndex((slot) => slot.alts[0].term === term));
  const literals = plan.query.literals.map((word) => {
    const terms = queryTerms(word);
    const one = terms.length === 1 ? terms[0] : undefined;
    return {
      matcher: literalMatcher(word),
      // the word as JSON writes it inside a string: looked for (case ignored) in an archive line's bytes first
      needle: jsonText(word),
      words: literalWords(word),
      // a plain word (letters and digits, no script without spaces) is held by whoever holds its term: no body is read
      plain: LETTER_OR_DIGIT.test(word) && !hasCjk(word),
      // an identifier joined by `_` or `-` is indexed whole: a session whose index holds it in no identifier
      // (`send_with_retries` in `simple_send_with_retries` too) does not hold it, bar the tail of a tool output past its
      // indexed first page: no body is read to tell
      holders: one?.parts && one.parts.length > 1 ? lib.index.holdersWithin(one.term) : undefined,
      slot: slotOf(one?.term),
    };
  });
  type Literal = (typeof literals)[number];
  const bit = (h: Scored, l: Literal): boolean | undefined => (l.slot >= 0 && l.slot < 32 ? ((h.held ?? 0) & (1 << l.slot)) !== 0 : undefined);
  const indexHolds = (h: Scored, l: Literal): boolean => l.plain && bit(h, l) === true;
  const indexLacks = (h: Scored, l: Literal): boolean => !!l.holders && !l.holders.has(h.key);
  // each candidate's archive line is opened once, for its prompts and then its body, and closed at the end
  const opened = new Map<Session, RawSession | undefined>();
  const rawOf = (s: Session): RawSession | undefined => {
    if (!opened.has(s)) opened.set(s, lib.turns.raw(s));
    return opened.get(s);
  };
  // a prompt is read for a literal only when the session's asked stems hold its every word (no turn read to tell)
  // (a plain word is typed where its stem was asked: the asked stems say so without a prompt read)
  const typed = (h: Scored, s: Session): number =>
    literals.filter(
      (l) =>
        !indexLacks(h, l) &&
        lib.semantic.asksAll(s.id, l.words) &&
        ((l.plain && l.slot >= 0 && l.words.length > 0) || holdsLiteral(lib.turns, s, l, true, rawOf)),
    ).length;
  // rank: literals held first, then typed (in a prompt or the title), then the words' score (topic x3 among them).
  // Prompts are read first (they are small); a session whose user typed every literal holds them all. Bodies are read
  // until FILLED sessions hold every literal or BODY_BYTES were read, bounds that do not depend on the limit, so that a
  // limit keeps the best of the same ranking; past them, a session no prompt of which holds a literal is ranked by what
  // its index says
  const all = literals.length;
  const rank = new Map<string, number>();
  let full = 0;
  let read = 0;
  const readBody = (h: Scored, s: Session, l: Literal): boolean => {
    if (indexHolds(h, l)) return true;
    if (indexLacks(h, l) || read >= BODY_BYTES) return false;
    read += s.size;
    return holdsLiteral(lib.turns, s, l, false, rawOf);
  };
  try {
    for (const h of hits.filter(looked)) {
      const s = lib.sessions.get(h.key)!;
      const t = typed(h, s);
      let held = t;
      if (t < all && (t > 0 || full < FILLED)) held = literals.filter((l) => readBody(h, s, l)).length;
      if (held === all) full++;
      rank.set(h.key, held * (all + 1) + t);
    }
  } finally {
    for (const raw of opened.values()) raw?.close();
  }
  // the rank is a band of the score: a session in a higher band scores above every one in a lower band
  const bands = (all + 1) ** 2;
  return hits.map((h) => ({ ...h, relevance: ((rank.get(h.key) ?? 0) + 0.999 * h.relevance) / bands }));
}

/** The words of a literal the asked stems keep. */
export function literalWords(literal: string): string[] {
  return tokenize(literal).filter(keptWord);
}

/**
 * Whether the title or a turn (a prompt only, with `promptsOnly`) holds a literal. A session whose turns are on disk is
 * read turn by turn from its archive line, parsing only the turns whose bytes hold the word: a literal query looks at
 * up to a hundred candidates, and parsing each whole (many MB for some) cost more than the rest of the search.
 */
function holdsLiteral(
  store: TurnStore,
  s: Session,
  literal: { matcher: RegExp; needle: string },
  promptsOnly: boolean,
  rawOf: (s: Session) => RawSession | undefined,
): boolean {
  if (literal.matcher.test(s.topic)) return true;
  const raw = rawOf(s);
  const held = raw && rawTurnsHold(raw, literal.needle, literal.matcher, promptsOnly);
  if (held !== undefined) return held;
  return containsPhrase(store, s, literal.matcher, promptsOnly ? isPrompt : undefined);
}

/** Whether the title or a turn (of those `inTurn` takes) holds the matcher's text. */
export function containsPhrase(store: TurnStore, session: Session, matcher: RegExp, inTurn: (t: Turn) => boolean = () => true): boolean {
  return matcher.test(session.topic) || store.all(session).some((t) => inTurn(t) && matcher.test(t.text));
}
