/**
 * Short forms: acronyms and abbreviations a query may use where sessions wrote the long form, or the other way round.
 * Three kinds, each ranked below the word typed (expand.ts) and shown as "also matched":
 * - acronyms the user's own sessions define ("JSON Web Tokens (JWT)", "JWT (JSON Web Token)"), found when a session is
 *   read (`definedAcronyms`) and kept on it;
 * - a word of the vocabulary that is the typed word with a product suffix added or taken off (`postgres` → `postgresql`,
 *   `mongodb` → `mongo`);
 * - the common short forms of the field (COMMON_SHORT_FORMS).
 */
import type { Turn } from '../model.js';
import { tokenize } from './tokenize.js';

/**
 * Abbreviations every developer reads, kept by hand for this product from the short names the projects and tools use
 * themselves (PostgreSQL's "Postgres", Kubernetes' "k8s", MongoDB's "Mongo") and the usual ones of code review and
 * configuration. Short form, then its long form as words.
 */
export const COMMON_SHORT_FORMS: readonly [string, string][] = [
  ['postgres', 'postgresql'],
  ['pg', 'postgresql'],
  ['mongo', 'mongodb'],
  ['k8s', 'kubernetes'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['db', 'database'],
  ['auth', 'authentication'],
  ['repo', 'repository'],
  ['env', 'environment'],
  ['config', 'configuration'],
  ['deps', 'dependencies'],
  ['regex', 'regular expression'],
  ['ci', 'continuous integration'],
  ['pr', 'pull request'],
  ['llm', 'large language model'],
  ['jwt', 'json web token'],
  ['ui', 'user interface'],
  ['gh', 'github'],
];

/** Suffixes product names take (`postgres`+`ql`, `mongo`+`db`, `node`+`js`): a vocabulary word that differs by one is the same thing. */
const PRODUCT_SUFFIXES = ['ql', 'sql', 'db', 'js'];

/** Acronyms per session kept at most. */
const KEPT_PER_SESSION = 20;
const IN_PARENS = /\(([A-Z][A-Z0-9]{1,7})s?\)/g;
const BEFORE_PARENS = /\b([A-Z][A-Z0-9]{1,7})s?\s*\(([^()\n]{3,80})\)/g;

/** The initials of words (a hyphenated word gives one per part: Role-Based → R, B), lower-cased. */
function initials(words: string[]): string {
  return words
    .flatMap((w) => w.split('-'))
    .filter(Boolean)
    .map((w) => w[0].toLowerCase())
    .join('');
}

/** The words of `text` as the long form keeps them: letters and digits, hyphens kept inside words. */
const wordsOf = (text: string): string[] => text.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];

/** Whether the last words of `before` spell `short`; those words, when they do. */
function spelledBefore(before: string, short: string): string[] | undefined {
  const words = wordsOf(before).slice(-short.length);
  for (let n = 1; n <= words.length; n++) {
    const tail = words.slice(-n);
    if (initials(tail) === short && tail.length > 1 && tail.some((w) => w.length > 1)) return tail;
  }
  return undefined;
}

/**
 * The acronyms a session's conversation defines, as [short, long] lower-cased ("JSON Web Tokens (JWT)" and
 * "JWT (JSON Web Token)" both give ["jwt", "json web tokens"] and ["jwt", "json web token"]): the long form's initials
 * must spell the short one. Tool output and file reads are not looked at (a code base's comments are not the user's words).
 */
export function definedAcronyms(turns: readonly Turn[]): [string, string][] {
  const found = new Map<string, string>();
  for (const turn of turns) {
    if (turn.kind !== 'conversation' || found.size >= KEPT_PER_SESSION) continue;
    const text = turn.text.length > 200_000 ? turn.text.slice(0, 200_000) : turn.text;
    for (const m of text.matchAll(IN_PARENS)) {
      const short = m[1].toLowerCase();
      const long = spelledBefore(text.slice(Math.max(0, m.index - 120), m.index), short);
      if (long && !found.has(short)) found.set(short, long.join(' ').toLowerCase());
    }
    for (const m of text.matchAll(BEFORE_PARENS)) {
      const short = m[1].toLowerCase();
      const words = wordsOf(m[2]);
      for (let n = 2; n <= Math.min(words.length, short.length); n++) {
        if (initials(words.slice(0, n)) !== short) continue;
        if (!found.has(short)) found.set(short, words.slice(0, n).join(' ').toLowerCase());
        break;
      }
    }
  }
  return [...found].slice(0, KEPT_PER_SESSION);
}

/** What a word may also be written as: single words, or several words a session must all hold. */
export interface ShortFormAlternative {
  /** The words of the other form (one word, or a long form's words). */
  words: string[];
  /** How it was found, for "also matched". */
  text: string;
}

/** Every short form known: the common ones and those the sessions define, each way (short → long, long → short). */
export class ShortForms {
  private readonly byShort = new Map<string, Set<string>>();
  /** Long forms by their first word, with their short form: a query's words in a row are looked up by their first. */
  private readonly byFirst = new Map<string, { short: string; words: string[] }[]>();

  constructor(learned: Iterable<readonly [string, string]> = []) {
    for (const [short, long] of COMMON_SHORT_FORMS) this.add(short, long);
    for (const [short, long] of learned) this.add(short, long);
  }

  private add(short: string, long: string): void {
    let longs = this.byShort.get(short);
    if (!longs) this.byShort.set(short, (longs = new Set()));
    if (longs.has(long)) return;
    longs.add(long);
    const words = tokenize(long);
    if (!words.length) return;
    const list = this.byFirst.get(words[0]) ?? [];
    list.push({ short, words });
    this.byFirst.set(words[0], list);
  }

  /**
   * The other forms of a query's words that `has` (the vocabulary) holds: a short form's long forms, a long form's
   * short one (also when the long form is several query words in a row), and product suffixes added or taken off.
   * Keyed by the index of the query term the form stands in for (for several words: the first of them).
   */
  alternatives(terms: string[], has: (term: string) => boolean): Map<number, ShortFormAlternative[]> {
    const out = new Map<number, ShortFormAlternative[]>();
    // a long form's words as the sessions write them: the plural or the singular will do (`json web tokens`)
    const held = (w: string): string | undefined => (has(w) ? w : has(`${w}s`) ? `${w}s` : w.endsWith('s') && has(w.slice(0, -1)) ? w.slice(0, -1) : undefined);
    const push = (i: number, wanted: string[]): void => {
      const found = wanted.map(held);
      if (found.some((w) => w === undefined)) return;
      const words = found as string[];
      if (words.join(' ') === terms[i]) return;
      const list = out.get(i) ?? [];
      if (list.some((a) => a.text === words.join(' '))) return;
      list.push({ words, text: words.join(' ') });
      out.set(i, list);
    };
    terms.forEach((term, i) => {
      for (const long of this.byShort.get(term) ?? []) push(i, tokenize(long));
      // a long form stands for its short one when that is not two letters (`python` is not every `.py` file)
      for (const { short, words } of this.byFirst.get(term) ?? []) if (short.length > 2 && words.every((w, k) => terms[i + k] === w)) push(i, [short]);
      if (/^[a-z]{3,}$/.test(term)) {
        for (const suffix of PRODUCT_SUFFIXES) {
          push(i, [term + suffix]);
          if (term.endsWith(suffix) && term.length - suffix.length >= 4) push(i, [term.slice(0, -suffix.length)]);
        }
      }
    });
    return out;
  }
}
