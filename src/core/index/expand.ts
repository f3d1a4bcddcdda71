/**
 * A query's words with the forms and spellings people mean: other word forms that share the word's stem (Porter, the
 * `stemmer` package) and, for a word no session holds, the nearest words that sessions do hold (edit distance 1 for
 * words up to 7 letters, 2 beyond, a swap of two letters counting 1). The word itself weighs most, so exact words still
 * rank first.
 */
import { stemmer } from 'stemmer';
import type { QuerySlot } from './ranking.js';
import type { ShortForms } from './short-forms.js';

/**
 * Which terms a visit of them needs: held by at least `minDf` documents, of `minLength` to `maxLength` characters, and
 * (`lettersOnly`) of letters only.
 */
export interface TermFilter {
  minDf?: number;
  minLength?: number;
  maxLength?: number;
  lettersOnly?: boolean;
}

/** What expansion looks words up in: the index's own terms. */
export interface Vocabulary {
  docFrequency(term: string): number;
  /** Every term some document holds with its document frequency; those `filter` rules out may be left out. */
  forEachTerm(visit: (term: string, df: number) => void, filter?: TermFilter): void;
}

export const FORM_WEIGHT = 0.8;
const NEAR_WEIGHT = [1, 0.7, 0.5];
/** Near spellings kept per word. */
const NEAR_KEPT = 3;
const ENDINGS = ['', 'e', 's', 'es', 'ed', 'd', 'ing', 'er', 'ers', 'ion', 'ions', 'ation', 'ations', 'ment', 'ments', 'y', 'ies', 'ied', 'ity', 'ly', 'al'];

export interface Expanded {
  slots: QuerySlot[];
  /** Words matched in place of one no session holds ("websoket" → "websocket"), to say so. */
  alsoMatched: string[];
}

const LETTERS = /^[a-z]+$/;

/** Other forms of a word that the vocabulary holds: the same stem, another ending (a doubled last consonant too). */
function forms(term: string, vocab: Vocabulary): string[] {
  if (term.length < 3 || !LETTERS.test(term)) return [];
  const stem = stemmer(term);
  const bases = new Set([stem, term, stem + stem.at(-1)]);
  const out = new Set<string>();
  for (const base of bases)
    for (const ending of ENDINGS) {
      const form = base + ending;
      if (form !== term && !out.has(form) && vocab.docFrequency(form) > 0 && stemmer(form) === stem) out.add(form);
    }
  return [...out];
}

/** The rows editDistance works in (the one before the last, the last, the one being filled), kept between calls. */
let rows = new Int32Array(96);

/**
 * Optimal string alignment distance, or `max + 1` as soon as it must exceed `max`. A query's unknown word is compared
 * with every term of the index (120,000 at 10,000 sessions): no allocation per call, UTF-16 code units compared.
 */
export function editDistance(a: string, b: string, max: number): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > max) return max + 1;
  const w = n + 1;
  if (rows.length < 3 * w) rows = new Int32Array(6 * w);
  let before = 0;
  let last = w;
  let row = 2 * w;
  for (let j = 0; j <= n; j++) rows[last + j] = j;
  for (let i = 1; i <= m; i++) {
    const ca = a.charCodeAt(i - 1);
    const caBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    rows[row] = i;
    let least = i;
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(rows[last + j] + 1, rows[row + j - 1] + 1, rows[last + j - 1] + (ca === cb ? 0 : 1));
      if (j > 1 && ca === b.charCodeAt(j - 2) && caBefore === cb) d = Math.min(d, rows[before + j - 2] + 1);
      rows[row + j] = d;
      if (d < least) least = d;
    }
    if (least > max) return max + 1;
    const free = before;
    before = last;
    last = row;
    row = free;
  }
  return rows[last + n];
}

/** Characters are counted by their code modulo this (two that share a count only make the test below looser). */
const COUNTED = 1024;

/**
 * Whether `word` holds at most `max` characters more than the word `counts` was made of (its characters counted): each
 * edit adds at most one, so a word with more is further than `max` edits and its distance need not be worked out.
 * `counts` is left as it was.
 */
function fewMore(word: string, counts: Int32Array, max: number): boolean {
  let more = 0;
  let i = 0;
  while (i < word.length && more <= max) if (--counts[word.charCodeAt(i++) % COUNTED] < 0) more++;
  for (let j = 0; j < i; j++) counts[word.charCodeAt(j) % COUNTED]++;
  return more <= max;
}

/** For each word no session holds, the nearest words sessions do hold (at least two of them), closest and commonest first. */
function nearSpellings(terms: string[], vocab: Vocabulary): Map<string, { term: string; distance: number; df: number }[]> {
  const wanted = terms.filter((t) => t.length >= 5 && LETTERS.test(t) && vocab.docFrequency(t) === 0);
  const found = new Map(wanted.map((t) => [t, [] as { term: string; distance: number; df: number }[]]));
  if (!wanted.length) return found;
  const counts = wanted.map((t) => {
    const c = new Int32Array(COUNTED);
    for (let i = 0; i < t.length; i++) c[t.charCodeAt(i) % COUNTED]++;
    return c;
  });
  const lengths = wanted.map((t) => t.length);
  // (a history whose tool output adds ids and hashes holds millions of terms, most in one session: only those that
  // could be a near spelling are made strings)
  const filter = { minDf: 2, minLength: Math.min(...lengths) - 2, maxLength: Math.max(...lengths) + 2, lettersOnly: true };
  vocab.forEachTerm((candidate, df) => {
    if (df < 2) return;
    for (let i = 0; i < wanted.length; i++) {
      const t = wanted[i];
      const max = t.length <= 7 ? 1 : 2;
      if (Math.abs(candidate.length - t.length) > max || !fewMore(candidate, counts[i], max)) continue;
      const distance = editDistance(t, candidate, max);
      if (distance <= max) found.get(t)!.push({ term: candidate, distance, df });
    }
  }, filter);
  for (const list of found.values()) list.sort((a, b) => a.distance - b.distance || b.df - a.df).splice(NEAR_KEPT);
  return found;
}

/**
 * The words a question is made of ("how did we…", "why does…"): they weigh little beside the words it is about, and
 * fully in a query made of nothing else.
 */
const QUESTION_WORDS = new Set(
  'how what when why where which who whose did does do done doing we our us me my you your can could should would will shall may might must about get got here any some way'.split(
    ' ',
  ),
);
export const QUESTION_WORD_WEIGHT = 0.25;

/** What an identifier's parts weigh, found apart in a session that holds them all (not written as the identifier). */
export const PARTS_WEIGHT = 0.5;
/** What two query words written as one weigh (fitted on the tuning split). */
export const JOINED_WEIGHT = 0.5;
/** What a short or long form of a word weighs (`postgres` for `postgresql`, `json web token` for `jwt`). */
export const SHORT_FORM_WEIGHT = 0.6;

export function expandTerms(terms: string[], vocab: Vocabulary, parts: ReadonlyMap<string, string[]> = new Map(), shortForms?: ShortForms): Expanded {
  const near = nearSpellings(terms, vocab);
  const short = shortForms?.alternatives(terms, (t) => vocab.docFrequency(t) > 0) ?? new Map();
  const alsoMatched: string[] = [];
  const asking = terms.some((t) => !QUESTION_WORDS.has(t));
  const slots = terms.map((term, i) => {
    const weight = asking && QUESTION_WORDS.has(term) ? QUESTION_WORD_WEIGHT : 1;
    const alts: QuerySlot['alts'] = [{ term, weight }, ...forms(term, vocab).map((form) => ({ term: form, weight: FORM_WEIGHT * weight }))];
    for (const other of short.get(i) ?? []) {
      alts.push(
        other.words.length === 1
          ? { term: other.words[0], weight: SHORT_FORM_WEIGHT * weight }
          : { term: other.text, weight: SHORT_FORM_WEIGHT * weight, all: other.words },
      );
      alsoMatched.push(other.text);
    }
    const apart = parts.get(term);
    if (apart) alts.push({ term: apart.join(' '), weight: PARTS_WEIGHT * weight, all: apart });
    for (const n of near.get(term) ?? []) {
      alts.push({ term: n.term, weight: NEAR_WEIGHT[n.distance] });
      alsoMatched.push(n.term);
    }
    return { alts };
  });
  // two words written as one in the sessions ("repo map" → "repomap", "web socket" → "websocket", `web_socket`); at
  // half weight: the index holds every `run_tests` of code as `runtests`, and "run the tests" is not about it
  for (let i = 0; i + 1 < terms.length; i++) {
    const joined = terms[i] + terms[i + 1];
    if (vocab.docFrequency(joined) > 0) slots.push({ alts: [{ term: joined, weight: JOINED_WEIGHT }] });
  }
  return { slots, alsoMatched };
}
