/**
 * Edit histories with a known author for every line, for judging line attribution (src/core/files/attribution.ts):
 * a first session writes a file, later sessions edit ranges of it (their new text holding the lines around the change,
 * as agents' edits do), rewrite it whole, and a person changes lines by hand between them. A line's author is the last
 * edit whose written text holds it, or nobody for a line typed by hand: what `file_history --lines` must name.
 */
import type { WrittenEdit } from '../src/core/files/attribution.js';
import { mulberry32 } from './corpus.js';

export interface AttributionCase {
  text: string;
  edits: WrittenEdit<string>[];
  /** Per line of `text`: the session that wrote it as it is, or undefined (by hand). */
  authors: (string | undefined)[];
}

const WORDS = ['retry', 'backoff', 'limit', 'request', 'cache', 'token', 'user', 'order', 'total', 'parse', 'render', 'queue', 'flush', 'timeout'];

export function attributionCase(seed: number): AttributionCase {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  let serial = 0;
  const line = (): string => {
    const r = rnd();
    if (r < 0.08) return '  }';
    if (r < 0.12) return '';
    serial++;
    const a = pick(WORDS);
    const b = pick(WORDS);
    return r < 0.3
      ? `  if (${a}${serial} > ${Math.floor(rnd() * 100)}) return ${b}(${a}${serial});`
      : `  const ${a}${serial} = ${b}${Math.floor(rnd() * 1000)}(${pick(WORDS)}, ${serial});`;
  };
  let lines: string[] = [];
  let authors: (string | undefined)[] = [];
  const edits: WrittenEdit<string>[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const at = (): string => new Date((clock += 60_000)).toISOString();
  const write = (session: string): void => {
    const keep = lines.filter(() => rnd() < 0.5);
    const next = Array.from({ length: 20 + Math.floor(rnd() * 40) }, line);
    for (const k of keep) next.splice(Math.floor(rnd() * next.length), 0, k);
    lines = next;
    authors = next.map(() => session);
    edits.push({ ref: session, at: at(), blocks: [next.join('\n')] });
  };
  write('s1');
  const steps = 4 + Math.floor(rnd() * 10);
  for (let step = 0, sessions = 1; step < steps; step++) {
    const r = rnd();
    if (r < 0.25) {
      // by hand: one line changed, or a new one typed
      const i = Math.floor(rnd() * lines.length);
      if (rnd() < 0.5) {
        lines[i] = `${lines[i]} // by hand ${step}`;
        authors[i] = undefined;
      } else {
        lines.splice(i, 0, `  log('typed by hand ${step}');`);
        authors.splice(i, 0, undefined);
      }
      continue;
    }
    const session = rnd() < 0.3 ? `s${sessions}` : `s${++sessions}`;
    if (r < 0.32) {
      write(session);
      continue;
    }
    // an agent's edit: a range replaced by new text that keeps a line of context on each side
    const from = Math.floor(rnd() * lines.length);
    const to = Math.min(lines.length, from + 1 + Math.floor(rnd() * 6));
    const fresh = Array.from({ length: 1 + Math.floor(rnd() * 5) }, line);
    const start = from > 0 ? from - 1 : from;
    const end = to < lines.length ? to + 1 : to;
    const written = [...(from > 0 ? [lines[from - 1]] : []), ...fresh, ...(to < lines.length ? [lines[to]] : [])];
    lines.splice(start, end - start, ...written);
    authors.splice(start, end - start, ...written.map(() => session));
    edits.push({ ref: session, at: at(), blocks: [written.join('\n')] });
  }
  return { text: lines.join('\n'), edits, authors };
}
