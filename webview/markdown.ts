/**
 * A turn's Markdown as a plain tree of allowed elements and text (no DOM, no HTML strings), so that the reader can
 * build it with DOM calls and tests can check it without a browser. Raw HTML in a transcript stays text (markdown-it
 * with `html: false`), links and images are shown as text with their target (nothing is fetched or followed), and the
 * engine's match ranges, given on the source text, are carried onto the text pieces they fall in.
 */
import markdownIt, { type Token } from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

for (const [name, language] of Object.entries({ bash, css, diff, go, java, javascript, json, python, rust, sql, typescript, xml, yaml }))
  hljs.registerLanguage(name, language);

export type Range = readonly [number, number];

/** An element of the reader's fixed set, or a text piece (`tag: '#text'`) with the match ranges inside it. */
export interface MdNode {
  tag: string;
  className?: string;
  text?: string;
  ranges?: Range[];
  children?: MdNode[];
}

/** Every element the reader may build; anything else becomes text. */
export const ALLOWED_TAGS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'hr', 'pre', 'code', 'strong', 'em', 's', 'span', 'br',
]); // prettier-ignore

const md = markdownIt({ html: false, linkify: false, typographer: false });

/** Where each line starts, to find a block's text in the source. */
function lineStarts(src: string): number[] {
  const starts = [0];
  for (let i = src.indexOf('\n'); i !== -1; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The ranges that fall in [from, from + length), moved to start at 0. */
function rangesIn(ranges: readonly Range[], from: number, length: number): Range[] {
  const out: Range[] = [];
  for (const [a, b] of ranges) {
    if (b <= from || a >= from + length) continue;
    out.push([Math.max(a, from) - from, Math.min(b, from + length) - from]);
  }
  return out;
}

/** Turns highlight.js's output (only `<span class="…">`, `</span>` and escaped text) into nodes; nothing else parses. */
function fromHighlighted(html: string): MdNode[] {
  const root: MdNode = { tag: 'code', children: [] };
  const stack = [root];
  const unescape = (s: string): string =>
    s.replace(/&(lt|gt|quot|amp|#x27|#39);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&', '#x27': "'", '#39': "'" })[e] ?? '');
  for (const part of html.split(/(<span class="[\w\- ]+">|<\/span>)/)) {
    if (!part) continue;
    const open = /^<span class="([\w\- ]+)">$/.exec(part);
    const top = stack[stack.length - 1];
    if (open) {
      const node: MdNode = { tag: 'span', className: open[1], children: [] };
      top.children!.push(node);
      stack.push(node);
    } else if (part === '</span>') {
      if (stack.length > 1) stack.pop();
    } else top.children!.push({ tag: '#text', text: unescape(part) });
  }
  return root.children!;
}

/** A fenced or indented code block: coloured by highlight.js when its language is known and no match falls inside. */
function codeBlock(content: string, info: string, from: number, ranges: readonly Range[]): MdNode {
  const language = info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const inside = from >= 0 ? rangesIn(ranges, from, content.length) : [];
  const known = language && hljs.getLanguage(language);
  const code: MdNode =
    known && !inside.length && content.length < 200_000
      ? { tag: 'code', className: `hljs language-${language}`, children: fromHighlighted(hljs.highlight(content, { language, ignoreIllegals: true }).value) }
      : { tag: 'code', className: language ? `language-${language}` : undefined, children: [{ tag: '#text', text: content, ranges: inside }] };
  return { tag: 'pre', children: [code] };
}

/** Inline tokens to nodes; each text piece is found in the source after `cursor` to carry its match ranges. */
function inline(tokens: Token[], src: string, start: number, ranges: readonly Range[], parent: MdNode): void {
  let cursor = start;
  const stack = [parent];
  const text = (value: string, find = true): void => {
    const at = find ? src.indexOf(value, cursor) : -1;
    const node: MdNode = { tag: '#text', text: value };
    if (at >= 0 && at - cursor <= 64) {
      node.ranges = rangesIn(ranges, at, value.length);
      cursor = at + value.length;
    }
    stack[stack.length - 1].children!.push(node);
  };
  const links: string[] = [];
  for (const t of tokens) {
    const top = stack[stack.length - 1];
    switch (t.type) {
      case 'text':
      case 'html_inline':
        text(t.content);
        break;
      case 'code_inline':
        top.children!.push({ tag: 'code', children: [] });
        stack.push(top.children![top.children!.length - 1]);
        text(t.content);
        stack.pop();
        break;
      case 'softbreak':
        top.children!.push({ tag: '#text', text: '\n' });
        break;
      case 'hardbreak':
        top.children!.push({ tag: 'br' });
        break;
      case 'image':
        text(`[image: ${t.content || 'no description'}]`, false);
        text(` (${String(t.attrGet('src') ?? '')})`, false);
        break;
      case 'link_open':
        links.push(String(t.attrGet('href') ?? ''));
        break;
      case 'link_close': {
        const href = links.pop() ?? '';
        if (href) top.children!.push({ tag: 'span', className: 'link-target', children: [{ tag: '#text', text: ` (${href})` }] });
        break;
      }
      default:
        if (t.nesting === 1 && ALLOWED_TAGS.has(t.tag)) {
          const node: MdNode = { tag: t.tag, children: [] };
          top.children!.push(node);
          stack.push(node);
        } else if (t.nesting === -1 && ALLOWED_TAGS.has(t.tag) && stack.length > 1) stack.pop();
    }
  }
}

/** The whole text as a list of block nodes. `ranges` are the engine's matches as [start, end) offsets of `src`. */
export function markdownTree(src: string, ranges: readonly Range[] = []): MdNode[] {
  const starts = lineStarts(src);
  const lineAt = (line: number | undefined): number => (line === undefined ? 0 : (starts[Math.min(line, starts.length - 1)] ?? 0));
  const root: MdNode = { tag: 'div', children: [] };
  const stack = [root];
  for (const t of md.parse(src, {})) {
    const top = stack[stack.length - 1];
    if (t.hidden) continue; // a tight list's paragraphs
    if (t.type === 'inline') inline(t.children ?? [], src, lineAt(t.map?.[0]), ranges, top);
    else if (t.type === 'fence' || t.type === 'code_block') {
      const from = src.indexOf(t.content, lineAt(t.map?.[0]));
      top.children!.push(codeBlock(t.content, t.info, from, ranges));
    } else if (t.type === 'html_block') {
      const from = src.indexOf(t.content, lineAt(t.map?.[0]));
      top.children!.push({ tag: 'p', children: [{ tag: '#text', text: t.content, ranges: from >= 0 ? rangesIn(ranges, from, t.content.length) : [] }] });
    } else if (t.type === 'hr') top.children!.push({ tag: 'hr' });
    else if (t.nesting === 1 && ALLOWED_TAGS.has(t.tag)) {
      const node: MdNode = { tag: t.tag, children: [] };
      top.children!.push(node);
      stack.push(node);
    } else if (t.nesting === -1 && ALLOWED_TAGS.has(t.tag) && stack.length > 1) stack.pop();
  }
  return root.children!;
}

/** Plain text as one preformatted block (tool output, file reads): no Markdown, only the match ranges. */
export function preformatted(src: string, ranges: readonly Range[] = [], language = ''): MdNode[] {
  return [codeBlock(src, language, 0, ranges)];
}
