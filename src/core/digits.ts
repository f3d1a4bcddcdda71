/**
 * A whole number with its thousands grouped by commas ("5,507"), as `toLocaleString('en-US')` writes it, without
 * Intl: the first call of that loads the locale data, about 12 ms of a 110 ms command on this machine (a search that
 * says "10 of 5,507 results").
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
