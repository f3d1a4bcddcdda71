/**
 * The tokenizer's rule, as a property: for any text of letters, digits, identifiers' joints, punctuation, accented and
 * non-Latin letters, digits of other scripts, Chinese, Japanese and Korean, and characters outside the basic plane,
 * the hand-written scan (tokenize.ts, the indexing hot loop) gives exactly the tokens the rule says, in order. The rule
 * is written here the plain way: by code point, with regular expressions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { isCjk, MAX_TOKEN_LENGTH, scanWords } from '../../src/core/index/tokenize.js';

/** 0: between words; 1: a letter or digit of a spaced script; 2: a character cut into pairs. */
function kindOf(ch: string): number {
  if (!/^[\p{L}\p{N}]$/u.test(ch)) return 0;
  return isCjk(ch.codePointAt(0)!) ? 2 : 1;
}

/** The rule: words; runs of paired characters as their pairs (and, joined, each alone); joined identifiers whole after their last part. */
function byTheRule(lower: string, joined: boolean): [string, number][] {
  const out: [string, number][] = [];
  const chars = [...lower];
  let word = '';
  let run: string[] = [];
  let parts: string[] = [];
  for (let k = 0; k <= chars.length; k++) {
    const ch = chars[k];
    const kind = ch === undefined ? -1 : kindOf(ch);
    if (kind !== 1 && word) {
      out.push([word, 0]);
      if (joined) {
        parts.push(word);
        const next = chars[k + 1];
        const joins = (ch === '_' || ch === '-') && next !== undefined && kindOf(next) === 1;
        if (!joins) {
          const whole = parts.join('');
          if (parts.length > 1 && parts.every((p) => /^\p{L}+\p{N}*$/u.test(p)) && whole.length <= MAX_TOKEN_LENGTH) out.push([whole, parts.length]);
          parts = [];
        }
      }
      word = '';
    }
    if (kind !== 2 && run.length) {
      if (run.length === 1) out.push([run[0], 0]);
      for (let i = 0; i + 1 < run.length; i++) out.push([run[i] + run[i + 1], 0]);
      if (joined && run.length > 1) for (const c of run) out.push([c, -1]);
      run = [];
    }
    if (kind === 1) word += ch;
    else if (kind === 2) run.push(ch);
  }
  return out;
}

function scanned(lower: string, joined: boolean): [string, number][] {
  const out: [string, number][] = [];
  scanWords(lower, (token, parts) => out.push([token, parts]), joined);
  return out;
}

// what transcripts hold: ASCII words and joints above all, and every kind of character the rule tells apart
const PIECES = [
  'a',
  'web',
  'socket',
  'v2',
  'x9',
  '42',
  '2024',
  'e5f6',
  'max',
  'map',
  'tokens',
  'ü',
  'é',
  'straße',
  'ñandú',
  'ελλάδα',
  'москва',
  'مرحبا',
  '٣',
  '२',
  '_',
  '-',
  '__',
  '--',
  ' ',
  '  ',
  '\n',
  '.',
  ',',
  '/',
  "'",
  '"',
  '(',
  ')',
  '—',
  '’',
  '…',
  '型',
  '日本語',
  'テスト',
  'ひらがな',
  '한국어',
  '々',
  '𠀀',
  '𝐀',
  '😀',
  '🇯🇵',
  'ｶﾀｶﾅ',
  'ﬁ',
  'ǅ',
  '\u00a0',
  '\u200b',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join('').toLowerCase());

test('the scan gives exactly the tokens of the rule, for indexing (identifiers joined) and for queries', () => {
  fc.assert(
    fc.property(text, fc.boolean(), (lower, joined) => {
      assert.deepEqual(scanned(lower, joined), byTheRule(lower, joined));
    }),
    { numRuns: 2_000 },
  );
});

test('examples of the rule', () => {
  assert.deepEqual(scanned('web_socket-v2 2024_x', true), [
    ['web', 0],
    ['socket', 0],
    ['v2', 0],
    ['websocketv2', 3],
    ['2024', 0],
    ['x', 0],
  ]);
  assert.deepEqual(scanned('日本語', false), [
    ['日本', 0],
    ['本語', 0],
  ]);
});
