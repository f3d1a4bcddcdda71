/** Builds text with matched words marked, using DOM nodes only: transcript text is never parsed as HTML. */
import { ALLOWED_TAGS, type MdNode } from './markdown.js';

/** Bidirectional-override characters can make `gnp.exe` read as `exe.png`: show them as visible codes instead. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function visibleControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

/**
 * Appends `raw` to `parent` as text nodes, with <mark> around the [start, end) `ranges` the engine found (sorted, not
 * overlapping): the page never works out matches itself. Ranges past the end (text cut for display) are dropped.
 */
export function appendMarked(parent: HTMLElement, raw: string, ranges: readonly (readonly [number, number])[] = []): void {
  let last = 0;
  for (const [from, to] of ranges) {
    if (from < last || from >= raw.length) continue;
    if (from > last) parent.append(document.createTextNode(visibleControls(raw.slice(last, from))));
    const mark = document.createElement('mark');
    mark.textContent = visibleControls(raw.slice(from, Math.min(to, raw.length)));
    parent.append(mark);
    last = Math.min(to, raw.length);
  }
  if (last < raw.length) parent.append(document.createTextNode(visibleControls(raw.slice(last))));
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Builds a Markdown tree (webview/markdown.ts) with DOM calls, only from the reader's allowed elements. */
export function appendTree(parent: HTMLElement, nodes: readonly MdNode[]): void {
  for (const node of nodes) {
    if (node.tag === '#text') {
      appendMarked(parent, node.text ?? '', node.ranges);
      continue;
    }
    const child = document.createElement(ALLOWED_TAGS.has(node.tag) ? node.tag : 'span');
    if (node.className) child.className = node.className;
    if (node.children) appendTree(child, node.children);
    parent.append(child);
  }
}
