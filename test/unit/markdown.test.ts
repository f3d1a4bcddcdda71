/**
 * The reader's Markdown (webview/markdown.ts): what a reader sees built from a turn, checked as the tree the page
 * builds with DOM calls. Raw HTML stays text, links show their target, code is coloured, and the engine's match ranges
 * land on the words they were found on, on real transcripts too.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ALLOWED_TAGS, markdownTree, preformatted, type MdNode } from '../../webview/markdown.js';
import { loadLibrary, CORPUS } from '../helpers.js';

function walk(nodes: readonly MdNode[], visit: (n: MdNode) => void): void {
  for (const n of nodes) {
    visit(n);
    if (n.children) walk(n.children, visit);
  }
}

const textOf = (nodes: readonly MdNode[]): string => {
  let out = '';
  walk(nodes, (n) => {
    if (n.tag === '#text') out += n.text;
  });
  return out;
};

/** The marked words, as the reader shows them in <mark>. */
const marked = (nodes: readonly MdNode[]): string[] => {
  const out: string[] = [];
  walk(nodes, (n) => {
    for (const [a, b] of n.ranges ?? []) out.push(n.text!.slice(a, b));
  });
  return out;
};

const tags = (nodes: readonly MdNode[]): Set<string> => {
  const out = new Set<string>();
  walk(nodes, (n) => out.add(n.tag));
  return out;
};

test('headings, lists, tables, quotes and emphasis become their elements', () => {
  const tree = markdownTree('# Plan\n\n- first **bold**\n- second *soft*\n\n1. one\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n');
  const seen = tags(tree);
  for (const tag of ['h1', 'ul', 'ol', 'li', 'strong', 'em', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr'])
    assert.ok(seen.has(tag), `${tag} is built`);
  assert.ok(!seen.has('p') || tree.some((n) => n.tag === 'blockquote'), 'tight lists have no paragraph inside');
  assert.match(textOf(tree), /Plan.*first bold.*second soft/s);
});

test('raw HTML in a transcript stays text; only the allowed elements are ever built', () => {
  const src = 'before <script>window.x = 1</script> <img src=x onerror="alert(1)">\n\n<div onclick="go()">block</div>\n\n<style>body{display:none}</style>\n';
  const tree = markdownTree(src);
  walk(tree, (n) => assert.ok(n.tag === '#text' || ALLOWED_TAGS.has(n.tag), `${n.tag} is allowed`));
  for (const bad of ['script', 'img', 'div', 'style', 'a']) assert.ok(!tags(tree).has(bad), `no ${bad} element`);
  const text = textOf(tree);
  assert.ok(text.includes('<script>window.x = 1</script>') && text.includes('onerror="alert(1)"') && text.includes('<div onclick'), text);
});

test('links and images are shown as text with their target, never followed or fetched', () => {
  const tree = markdownTree('See [the docs](https://example.com/guide) and ![diagram](https://example.com/d.png) or [run](command:workbench.action.quit).');
  const text = textOf(tree);
  assert.ok(text.includes('the docs (https://example.com/guide)'), text);
  assert.ok(text.includes('[image: diagram] (https://example.com/d.png)'), text);
  assert.ok(!tags(tree).has('a') && !tags(tree).has('img'));
});

test('fenced code is coloured by language; a match inside code is marked instead', () => {
  const coloured = markdownTree('Try:\n\n```ts\nconst port: number = 5432; // db\n```\n');
  const spans: string[] = [];
  walk(coloured, (n) => {
    if (n.tag === 'span' && n.className?.startsWith('hljs-')) spans.push(`${n.className}:${textOf(n.children ?? [])}`);
  });
  assert.ok(spans.includes('hljs-keyword:const'), spans.join(' | '));
  assert.ok(spans.includes('hljs-number:5432'), spans.join(' | '));
  assert.ok(
    spans.some((s) => s.startsWith('hljs-comment:')),
    spans.join(' | '),
  );
  assert.ok(textOf(coloured).includes('const port: number = 5432; // db'));

  const src = 'Try:\n\n```ts\nconst port: number = 5432;\n```\n';
  const at = src.indexOf('5432');
  const withHit = markdownTree(src, [[at, at + 4]]);
  assert.deepEqual(marked(withHit), ['5432']);
  assert.ok(textOf(withHit).includes('const port: number = 5432;'));
});

test('tool output stays as written in one block, with its matches', () => {
  const src = '<b>not bold</b>\n# not a heading\nERROR: connection refused';
  const at = src.indexOf('refused');
  const tree = preformatted(src, [[at, at + 7]]);
  assert.deepEqual([...tags(tree)].sort(), ['#text', 'code', 'pre']);
  assert.equal(textOf(tree), src);
  assert.deepEqual(marked(tree), ['refused']);
});

test('match ranges land on the words they were found on, through emphasis, code spans, lists and links', () => {
  const src = 'We chose **PostgreSQL** for the `ledger`:\n\n- keep [pgbouncer](https://pgbouncer.org) in front\n- and *replicas*\n';
  const words = ['PostgreSQL', 'ledger', 'pgbouncer', 'replicas'];
  const ranges = words.map((w) => [src.indexOf(w), src.indexOf(w) + w.length] as const);
  assert.deepEqual(marked(markdownTree(src, ranges)), words);
});

test('on real transcripts, every word the engine would mark is marked in the rendered Markdown', async () => {
  const { library } = await loadLibrary([{ source: 'claude-code', path: join(CORPUS, 'claude-code') }]);
  let tried = 0;
  let carried = 0;
  for (const session of library.sessions.values()) {
    for (const turn of library.turns.all(session)) {
      if (turn.kind !== 'conversation' || turn.role === 'tool') continue;
      const words = [...turn.text.matchAll(/\b[A-Za-z]{6,}\b/g)].slice(0, 20);
      if (!words.length) continue;
      const ranges = words.map((m) => [m.index, m.index + m[0].length] as const);
      const got = marked(markdownTree(turn.text, ranges));
      tried += words.length;
      carried += got.filter((g, i) => g === words[i]?.[0] || words.some((w) => w[0] === g)).length;
      for (const g of got) assert.ok(/^[A-Za-z]+$/.test(g), `a mark covers a whole word, not "${g}"`);
    }
  }
  assert.ok(tried > 200, `enough real words tried (${tried})`);
  assert.ok(carried / tried > 0.97, `${carried} of ${tried} marks carried onto the rendered text`);
  await library.close();
});
