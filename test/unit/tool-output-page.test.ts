/**
 * Full-text search covers the first page (512,000 characters) of every tool output, as the archive's search view
 * promises; later pages are not indexed but stay readable by docid and offset. Codex outputs are kept whole.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openCore, INDEXED_CHARS_PER_TOOL_TURN } from '../../src/core/library/open.js';
import fc from 'fast-check';
import { PAGE_BYTES, readDoc } from '../../src/core/answer/sessions.js';
import type { LibraryView } from '../../src/core/answer/view.js';
import { MemoryLogger, silentLogger } from '../../src/core/log.js';
import { TurnStore } from '../../src/core/store/turn-store.js';
import type { WorkspaceAnswer } from '../../src/core/answer/workspaces.js';
import { tempDir } from '../helpers.js';

/** Filler tool output: lines of a build log, with `marks` placed at the given character offsets. */
function buildLog(length: number, marks: [number, string][]): string {
  const line = 'compiling module graph chunk ok\n';
  let text = line.repeat(Math.ceil(length / line.length)).slice(0, length);
  for (const [at, word] of marks) text = `${text.slice(0, at)} ${word} ${text.slice(at + word.length + 2)}`;
  return `${text.slice(0, length - 5)}done\n`;
}

/** A Claude Code session under `root`: a prompt, a Bash call and its output. */
function writeToolSession(root: string, id: string, prompt: string, command: string, output: string): void {
  const at = (s: number) => new Date(Date.UTC(2026, 5, 1, 9, 0, s)).toISOString();
  const lines = [
    { type: 'user', uuid: 'u0', sessionId: id, cwd: '/w', timestamp: at(0), message: { role: 'user', content: prompt } },
    {
      type: 'assistant',
      uuid: 'a0',
      sessionId: id,
      cwd: '/w',
      timestamp: at(1),
      message: { id: 'm0', role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Bash', input: { command } }] },
    },
    {
      type: 'user',
      uuid: 'u1',
      sessionId: id,
      cwd: '/w',
      timestamp: at(2),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: output }] },
    },
  ];
  mkdirSync(join(root, 'p'), { recursive: true });
  writeFileSync(join(root, 'p', `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

test('the first 512,000 characters of a tool output are searched; the rest is read by docid and offset', async () => {
  assert.equal(INDEXED_CHARS_PER_TOOL_TURN, PAGE_BYTES, 'the indexed part is the first page a read returns (of ASCII text)');
  const root = tempDir();
  const id = '66666666-6666-4666-8666-666666666666';
  const output = buildLog(700_000, [
    [300_000, 'zanzibarmarker'],
    [600_000, 'quetzalmarker'],
  ]);
  writeToolSession(root, id, 'run the full build', 'make all', output);
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {}, dataDir: tempDir() });
  await library.load();

  const found = library.search('zanzibarmarker');
  assert.equal(found.count, 1, 'a word 300,000 characters into the output is found');
  assert.ok(
    found.results[0].matchedSnippets.some((s, i) => s.includes('zanzibarmarker') && found.results[0].snippetHighlights[i].length > 0),
    'with a marked snippet',
  );
  assert.equal(library.search('quetzalmarker').count, 0, 'past the first page nothing is indexed');
  const groups: WorkspaceAnswer[] = [];
  await library.searchWorkspaces('zanzibarmarker', {}, (a) => groups.push(a));
  const hit = groups.length === 1 && 'group' in groups[0] ? groups[0].group.hits[0] : undefined;
  assert.equal(hit?.user, 'run the full build', 'the workspace view shows the exchange the output belongs to');
  assert.ok(hit.match?.includes('zanzibarmarker') && hit.matchKind === 'tool', 'and the lines of the output that matched');
  const [from, to] = hit.matchHighlights![0];
  assert.equal(hit.match?.slice(from, to), 'zanzibarmarker');

  const turnId = found.results[0].snippetTurnIds.find((t, i) => found.results[0].matchedSnippets[i].includes('zanzibarmarker'))!;
  const first = await library.read(turnId, 0);
  assert.equal(first.total_bytes, output.length);
  assert.equal(first.next_offset, PAGE_BYTES);
  const second = await library.read(turnId, first.next_offset!);
  assert.ok(second.text.includes('quetzalmarker'), 'the second page is read by offset');
  assert.equal(second.next_offset, null);
  assert.equal(first.text + second.text, output, 'the output reads back whole');
  await library.close();
});

test('a Codex tool output longer than 64 KiB is kept whole', async () => {
  const home = tempDir();
  const dir = join(home, 'sessions', '2026', '06', '01');
  mkdirSync(dir, { recursive: true });
  const id = '77777777-7777-4777-8777-777777777777';
  const output = buildLog(200_000, [[150_000, 'capybaramarker']]);
  const ts = '2026-06-01T09:00:00.000Z';
  const records = [
    { timestamp: ts, type: 'session_meta', payload: { id, cwd: '/w', timestamp: ts } },
    { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] } },
    { timestamp: ts, type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["npm","test"]}', call_id: 'c1' } },
    { timestamp: ts, type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output } },
  ];
  writeFileSync(join(dir, `rollout-2026-06-01T09-00-00-${id}.jsonl`), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const library = openCore({ roots: [{ source: 'codex', path: join(home, 'sessions') }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const r = library.search('capybaramarker');
  assert.equal(r.count, 1, 'a word 150,000 characters into a Codex output is found');
  const session = library.sessions.get(r.results[0].id)!;
  const kept = library.turns.all(session).find((t) => t.text.includes('capybaramarker'));
  assert.ok(kept && kept.text.length >= output.length && kept.text.endsWith(output), `the output is kept whole (${kept?.text.length})`);
  await library.close();
});

test('property: for any text, pages read by next_offset reassemble it byte for byte; sizes and offsets are UTF-8 bytes', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('最新の状態に\n', 'émoji 😀 ', 'ascii line\n', '\u0000\u007f')), {
        minLength: 1,
        maxLength: 30,
      }),
      fc.integer({ min: 0, max: 40_000 }),
      (pieces, repeat) => {
        const text = pieces.join('').repeat(1 + repeat);
        const id = 'codearchitect:p';
        const lib = { sessions: new Map([[id, { turns: [{ id: `${id}#0`, text }] }]]), turns: new TurnStore(silentLogger) } as unknown as LibraryView;
        let offset: number | null = 0;
        const parts: string[] = [];
        let total = -1;
        while (offset !== null) {
          const page = readDoc(lib, `${id}#0`, offset);
          assert.ok(page.found && page.returned_bytes <= PAGE_BYTES);
          assert.equal(Buffer.byteLength(page.text), page.returned_bytes);
          total = page.total_bytes;
          parts.push(page.text);
          offset = page.next_offset;
          if (parts.length > 1000) throw new Error('no end');
        }
        assert.equal(parts.join(''), text);
        assert.equal(total, Buffer.byteLength(text));
      },
    ),
    { numRuns: 40 },
  );
});

test('the workspace view shows the line of a tool output that holds the match, 1.3 M characters in, even when the prompt holds another query word', async () => {
  const root = tempDir();
  const id = '88888888-8888-4888-8888-888888888888';
  const output = `${buildLog(1_300_000, [])}\nstep 4812: the borealismarker flag was set\n${buildLog(20_000, [])}`;
  writeToolSession(root, id, 'why does qzxcheck fail in the nightly build', 'make nightly', output);
  const library = openCore({ roots: [{ source: 'claude-code', path: root }], logger: new MemoryLogger(), env: {} });
  await library.load();
  const groups: WorkspaceAnswer[] = [];
  await library.searchWorkspaces('qzxcheck borealismarker', {}, (a) => groups.push(a));
  const hits = groups.length === 1 && 'group' in groups[0] ? groups[0].group.hits : [];
  const deep = hits.find((h) => h.matchKind === 'tool');
  assert.ok(deep?.match, JSON.stringify(hits.map((h) => ({ user: h.user, match: h.match?.slice(0, 80) }))));
  assert.match(deep.match, /step 4812: the borealismarker flag was set/);
  const [from, to] = deep.matchHighlights![0];
  assert.equal(deep.match.slice(from, to), 'borealismarker');
  await library.close();
});
