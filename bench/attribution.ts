/**
 * `npm run bench:attribution`: how often `file_history --lines` names the right session for a line, over generated
 * edit histories whose every line's author is known (attribution-cases.ts): right, "no agent edit matches" where a
 * session wrote it (missed), and a wrong session named (the error that misleads).
 */
import { attributeLines } from '../src/core/files/attribution.js';
import { attributionCase } from './attribution-cases.js';

const CASES = 500;
let lines = 0;
let right = 0;
let missed = 0;
let wrong = 0;
let byHand = 0;
let byHandNamed = 0;
let plain = 0;
let plainRight = 0;
for (let seed = 1; seed <= CASES; seed++) {
  const { text, edits, authors } = attributionCase(seed);
  const named: (string | undefined)[] = [];
  for (const s of attributeLines(text, edits, 1, authors.length)) for (let l = s.from; l <= s.to; l++) named[l - 1] = s.ref;
  const textLines = text.split('\n');
  authors.forEach((author, i) => {
    lines++;
    const trivial = textLines[i].trim().length <= 3;
    if (!trivial) plain++;
    if (named[i] === author) {
      right++;
      if (!trivial) plainRight++;
    } else if (named[i] === undefined) missed++;
    else wrong++;
    if (author === undefined) {
      byHand++;
      if (named[i] !== undefined) byHandNamed++;
    }
  });
}
const pct = (n: number, of: number): string => `${((100 * n) / of).toFixed(1)}%`;
console.log(`${CASES} edit histories, ${lines} lines (${byHand} by hand)`);
console.log(
  `right ${pct(right, lines)} (lines other than "}" and blank: ${pct(plainRight, plain)}), no session named where one wrote it ${pct(missed, lines)}, a wrong session ${pct(wrong, lines)}`,
);
console.log(`lines typed by hand: "no agent edit matches" ${pct(byHand - byHandNamed, byHand)}`);
