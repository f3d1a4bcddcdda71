/** Builds text with matched words marked, using DOM nodes only: transcript text is never parsed as HTML. */

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The words of a query worth marking: no exclusions, no one-letter words. */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const part of query.split(/\s+/)) {
    if (!part || part.startsWith('-')) continue;
    for (const w of part.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) if (w.length > 1 && !words.includes(w)) words.push(w);
  }
  return words;
}

export function matcher(words: string[]): RegExp | undefined {
  if (!words.length) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
}

/** Bidirectional-override characters can make `gnp.exe` read as `exe.png`: show them as visible codes instead. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function visibleControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

/** Appends `text` to `parent` as text nodes, with <mark> around matches. */
export function appendHighlighted(parent: HTMLElement, raw: string, re: RegExp | undefined): void {
  const text = visibleControls(raw);
  if (!re) {
    parent.append(document.createTextNode(text));
    return;
  }
  let last = 0;
  re.lastIndex = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parent.append(document.createTextNode(text.slice(last, m.index)));
    const mark = document.createElement('mark');
    mark.textContent = m[0];
    parent.append(mark);
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.append(document.createTextNode(text.slice(last)));
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
