/**
 * What of a session is embedded: its title, each prompt of its user, and each run of the agent's replies between two
 * prompts; never tool output, files or thinking (most of the bytes, little of what a session is about). Each unit is
 * cut to UNIT_CHARS and named by a hash of its text, so that a session that grew embeds only its new units.
 */
import { isPrompt, type Session, type Turn } from '../model.js';

export const UNIT_CHARS = 1_000;
/** Units a session keeps at most: its first ones and its last ones (a long session's middle is left out). */
export const MAX_UNITS = 32;
const FIRST_UNITS = 20;
/** Shorter units ("yes", "go on") say nothing of what a session is about. */
const MIN_CHARS = 12;

export interface Unit {
  text: string;
  hash: number;
}

/** FNV-1a over the text's UTF-16 code units. */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function embeddingUnits(session: Pick<Session, 'topic'> & { turns: readonly Turn[] }): Unit[] {
  const texts: string[] = [];
  const add = (text: string): void => {
    const t = text.replace(/\s+/g, ' ').trim().slice(0, UNIT_CHARS);
    if (t.length >= MIN_CHARS && texts.at(-1) !== t) texts.push(t);
  };
  add(session.topic);
  let replies: string[] = [];
  const flush = (): void => {
    if (replies.length) add(replies.join('\n'));
    replies = [];
  };
  for (const turn of session.turns) {
    if (turn.kind !== 'conversation') continue;
    if (isPrompt(turn)) {
      flush();
      if (texts[0] !== turn.text.replace(/\s+/g, ' ').trim().slice(0, UNIT_CHARS)) add(turn.text);
    } else if (turn.role === 'assistant' && replies.join('\n').length < UNIT_CHARS) replies.push(turn.text);
  }
  flush();
  const kept = texts.length > MAX_UNITS ? [...texts.slice(0, FIRST_UNITS), ...texts.slice(texts.length - (MAX_UNITS - FIRST_UNITS))] : texts;
  const seen = new Set<number>();
  const units: Unit[] = [];
  for (const text of kept) {
    const hash = textHash(text);
    if (!seen.has(hash)) units.push({ text, hash });
    seen.add(hash);
  }
  return units;
}
