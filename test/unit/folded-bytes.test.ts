/**
 * A literal looked for in an archive line's bytes, ASCII letters' case ignored, without decoding them: the place a
 * case-blind pattern finds in the bytes read one to a character, for any bytes and any needle.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { foldable, foldedIndexOf } from '../../src/core/store/folded-bytes.js';
import { escapeRegExp } from '../../src/core/regexp.js';

/** What a case-blind pattern finds: the reference the byte search must agree with. */
const byPattern = (bytes: Buffer, needle: string): number => bytes.toString('latin1').search(new RegExp(escapeRegExp(needle), 'i'));

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
/** Needles of what people search for (flags, identifiers, paths, JSON escapes) and of any printable characters. */
const needle = fc.oneof(
  fc.constantFrom('--cache', 'send_with_retries', 'aider/io.py', 'C:\\\\tools', 'say \\"hi\\"', 'Ab', 'zq', 'e', ' ', '_'),
  fc.array(printable, { minLength: 1, maxLength: 12 }).map((c) => c.join('')),
  fc.array(fc.constantFrom('a', 'B', 'e', 'E', '-', '_', '1'), { minLength: 1, maxLength: 6 }).map((c) => c.join('')),
);
/** Flips the case of some letters, as a transcript may write a flag or a name. */
const recased = (text: string, flips: boolean[]): string =>
  [...text].map((c, i) => (flips[i % flips.length] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');

test('the byte search finds what a case-blind pattern finds on the bytes, first place included, for any bytes and needle', () => {
  fc.assert(
    fc.property(
      needle,
      // bytes made of copies of the needle in other cases, its pieces, letters around it and bytes above 0x7f
      fc.array(fc.oneof(fc.constant('copy'), fc.constant('half'), fc.uint8Array({ maxLength: 6 }), fc.constantFrom('a', 'E', ' ', 'é', 'K')), {
        maxLength: 10,
      }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
      (text, parts, flips) => {
        const pieces = parts.map((p, i) =>
          p === 'copy'
            ? Buffer.from(recased(text, flips.slice(i % flips.length)), 'latin1')
            : p === 'half'
              ? Buffer.from(recased(text.slice(0, Math.ceil(text.length / 2)), flips), 'latin1')
              : typeof p === 'string'
                ? Buffer.from(p, 'utf8')
                : Buffer.from(p),
        );
        const bytes = Buffer.concat(pieces);
        assert.equal(foldedIndexOf(bytes, text), byPattern(bytes, text));
      },
    ),
    { numRuns: 3000 },
  );
});

test('the byte search finds a needle at the very start and the very end, in any case, and not past the end', () => {
  for (const text of ['--cache', 'Zq', 'x', 'send_with_retries']) {
    const upper = text.toUpperCase();
    assert.equal(foldedIndexOf(Buffer.from(`${upper}...`), text), 0);
    assert.equal(foldedIndexOf(Buffer.from(`...${upper}`), text), 3);
    assert.equal(foldedIndexOf(Buffer.from(`...${upper.slice(0, -1)}`), text), -1);
    // a match in the other case of the looked-for character before one in its own case: the first is found
    assert.equal(foldedIndexOf(Buffer.from(`${upper} ${text}`), text), 0);
  }
  assert.equal(foldedIndexOf(Buffer.from('abc'), ''), 0);
  assert.equal(foldedIndexOf(Buffer.alloc(0), 'a'), -1);
});

test('only printable ASCII needles are looked for in bytes', () => {
  assert.ok(foldable('--cache "x" C:\\\\tools'));
  assert.ok(!foldable('naïve'));
  assert.ok(!foldable('日本'));
  assert.ok(!foldable('tab\there'));
});
