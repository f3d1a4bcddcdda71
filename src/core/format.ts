/** JSON and TOON output. TOON saves tokens on uniform arrays but costs them on nested, irregular data: `auto` measures. */
import { decode, encode } from '@toon-format/toon';

export type OutputFormat = 'json' | 'toon' | 'auto';

export function toToon(value: unknown): string {
  return encode(value, { delimiter: '\t' });
}

export function fromToon(text: string): unknown {
  return decode(text);
}

/** The text for `value` in the chosen format; `auto` picks TOON only where it is shorter than compact JSON. */
export function render(value: unknown, format: OutputFormat): { format: 'json' | 'toon'; text: string } {
  const json = JSON.stringify(value);
  if (format === 'json') return { format: 'json', text: json };
  const toon = toToon(value);
  if (format === 'toon' || toon.length < json.length) return { format: 'toon', text: toon };
  return { format: 'json', text: json };
}
