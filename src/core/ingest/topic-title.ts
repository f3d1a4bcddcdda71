/**
 * When a stored topic names no subject, a title from what the user asked. CodeArchitect names a session's folder with
 * keywords picked from it: `session-1723826458844` when it found none, filler (`ill`, `comment-3`, `please`), or words
 * glued out of a pasted blob (`variablesn-openaiapikey-anthropicapikey`: `\n` flattened, key names of an `.env`).
 */
import { isPrompt, type Turn } from '../model.js';

/** Slug words that carry no subject (the keyword picker's usual leftovers). */
const FILLER = new Set(
  'ill im ive id youre its lets please since comment comments running run this that these those here there below above added adds add address update updates create created implement implemented question relevant file files lines line thing things stuff okay ok yes no hi hello hey thanks thank sure also just like make'.split(
    ' ',
  ),
);
/** Words of a pasted configuration rather than a subject. */
const BLOB_WORD = /(?:apikey|api_key|secret|password|passwd|token)/i;
/** A greeting or a bare help request: the first prompt that is not one of these names the session better. */
const GREETING = /^(?:\/\w+\s+)?(?:hi|hello|hey|yo|thanks|thank you|ok|okay|test|testing)\W*$/i;

/** How much of a session's text is read to know its words. */
const WORDS_FROM_CHARS = 200_000;

/**
 * A slug word glued at a flattened `\n`: `variablesn` (variables + n), `troubleshootingnexcerpt` (troubleshooting +
 * n + excerpt); both halves are words of the session, the whole is not.
 */
function gluedAtNewline(word: string, known: Set<string>): boolean {
  if (known.has(word)) return false;
  for (let i = 4; i < word.length; i++) {
    if (word[i] !== 'n') continue;
    const after = word.slice(i + 1);
    if (known.has(word.slice(0, i)) && (after === '' || known.has(after))) return true;
  }
  return false;
}

/** Whether `topic` (a folder's name) says nothing that the session's own words (its turns) would say better. */
export function topicSaysNothing(topic: string, turns: readonly { text: string }[]): boolean {
  if (!topic.trim() || /^session[-_]?\d{6,}$/i.test(topic)) return true;
  const words = topic
    .toLowerCase()
    .replace(/-\d+$/, '')
    .split(/[-_\s]+/)
    .filter(Boolean);
  if (!words.length || words.every((w) => FILLER.has(w) || /^\d+$/.test(w))) return true;
  if (words.some((w) => BLOB_WORD.test(w))) return true;
  const long = words.filter((w) => w.length >= 8);
  if (!long.length) return false; // the session's words are only read when a slug word could be glued
  const text = turns
    .map((t) => t.text)
    .join('\n')
    .slice(0, WORDS_FROM_CHARS)
    .toLowerCase();
  const known = new Set<string>(text.match(/[a-z0-9]+/g) ?? []);
  return long.some((w) => gluedAtNewline(w, known));
}

/** The first line of the first user prompt that is more than a greeting (else of the first prompt), as a title. */
export function promptTitle(turns: readonly Pick<Turn, 'role' | 'kind' | 'text'>[]): string | undefined {
  const firstLine = (text: string): string | undefined =>
    text
      .split('\n')
      .map((l) => l.replace(/^[#>*\s-]+/, '').trim())
      .find(Boolean);
  const prompts = turns
    .filter(isPrompt)
    .map((t) => firstLine(t.text))
    .filter((l): l is string => !!l);
  const line = prompts.find((l) => !GREETING.test(l)) ?? prompts[0];
  return line && (line.length > 80 ? `${line.slice(0, 79)}…` : line);
}
