/**
 * A text of printable ASCII looked for in bytes with the case of ASCII letters ignored, without decoding the bytes: a
 * literal query (a flag, an identifier, a path) reads up to 16 MB of archived turns, and making a string of them to
 * test a case-blind pattern cost more than the rest of such a search (the strings' memory taken and given back at
 * every query). Bytes of 0x80 and above never match a needle's character, as a case-blind JavaScript pattern (no `u`
 * flag) on the bytes read one to a character never folds them to ASCII.
 */

/**
 * Printable characters from the most common in transcripts' JSON to the least (letters by their small form; the ones
 * not listed rarer still): a needle is looked for by its rarest character first, where the fewest candidates lie.
 */
const COMMON = ' etaoinsr"lhdcu\\mp,fg:yw.b/-0123456789vk_()=x*#{}[]<>;\'`jqz@$%&|!?+~^';

/** How common a character (folded) is, for choosing where to look first: 0 for the rarest. */
function commonness(code: number): number {
  const at = COMMON.indexOf(String.fromCharCode(code));
  return at < 0 ? 0 : COMMON.length - at;
}

const isSmallLetter = (code: number): boolean => code >= 97 && code <= 122;
/** An ASCII capital as its small letter; every other byte as it is. */
const fold = (code: number): number => (code >= 65 && code <= 90 ? code | 32 : code);

/** Whether `needle` can be looked for by `foldedIndexOf` (printable ASCII only). */
export function foldable(needle: string): boolean {
  return /^[\x20-\x7e]*$/.test(needle);
}

/**
 * The first offset in `bytes` at which `needle` (printable ASCII: `foldable`) lies with ASCII letters in either case,
 * or -1: the index `new RegExp(escaped needle, 'i')` finds in the bytes read one to a character.
 */
export function foldedIndexOf(bytes: Buffer, needle: string): number {
  return foldedSearch(needle)(bytes);
}

/**
 * `foldedIndexOf` for one needle, prepared once for many buffers (a literal checked in every turn of a body): its
 * characters folded, and its rarest one chosen. That character is found by the buffer's own search (both cases of a
 * letter, one after the other), and each place it lies is compared whole.
 */
export function foldedSearch(needle: string): (bytes: Buffer) => number {
  const m = needle.length;
  const want = new Uint8Array(m);
  let anchor = 0;
  let least = Infinity;
  for (let j = 0; j < m; j++) {
    const code = fold(needle.charCodeAt(j));
    want[j] = code;
    const cost = commonness(code) * (isSmallLetter(code) ? 2 : 1);
    if (cost < least) {
      least = cost;
      anchor = j;
    }
  }
  const a = want[anchor];
  const variants = isSmallLetter(a) ? [a, a - 32] : [a];
  return (bytes) => {
    if (m === 0) return 0;
    if (m > bytes.length) return -1;
    const last = bytes.length - m; // the last offset the needle can start at
    let found = -1;
    for (const variant of variants) {
      // (the second case's scan stops where the first's match starts: the first of both is the answer)
      const end = found < 0 ? last : found - 1;
      for (let i = bytes.indexOf(variant, anchor); i !== -1 && i - anchor <= end; i = bytes.indexOf(variant, i + 1)) {
        if (matchesAt(bytes, i - anchor, want)) {
          found = i - anchor;
          break;
        }
      }
    }
    return found;
  };
}

/** Whether the folded needle `want` lies in `bytes` at `start` (which leaves room for all of it). */
function matchesAt(bytes: Buffer, start: number, want: Uint8Array): boolean {
  for (let j = 0; j < want.length; j++) if (fold(bytes[start + j]) !== want[j]) return false;
  return true;
}
