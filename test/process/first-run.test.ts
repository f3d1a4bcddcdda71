/**
 * The first run answers at once: a cold MCP server over a history of real-sized transcripts answers its first search
 * while it is still indexing, says so, has indexed the newest sessions first, reads a session asked for by id ahead of
 * its turn, and answers in full once done.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { eventually } from '../eventually.js';
import { copyId, ROOT, tempDir, writeSessionCopies } from '../helpers.js';

const SAMPLE = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b';
const COPIES = 120;

type Answer = { structuredContent?: { count: number; indexing?: { filesDone: number; filesTotal: number; complete: boolean } }; content: { text: string }[] };

test('a cold server answers its first search at once, marked partial, newest sessions first; later answers are whole', async () => {
  // 120 sessions of 770 KB (a real Claude Code transcript, each with its own id and a word of its own), one minute apart
  const base = Date.parse('2026-06-01T00:00:00Z') / 1000;
  const root = writeSessionCopies(SAMPLE, COPIES, 12, {
    edit: (text, i) => text.replace('create TODO app by Next.js', `create TODO app by Next.js copymark${i}`),
    mtime: (i) => base + i * 60,
  });
  const client = new Client({ name: 'first-run', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'dist', 'mcp.js'), '--data', tempDir(), '--root', `claude-code=${root}`],
      stderr: 'pipe',
    }),
  );
  const search = async (query: string): Promise<Answer> => (await client.callTool({ name: 'search_session', arguments: { query } })) as Answer;
  try {
    const started = performance.now();
    const first = await search('orchestrator');
    const ms = performance.now() - started;
    const indexing = first.structuredContent?.indexing;
    assert.ok(indexing && !indexing.complete, `the first answer came while indexing (${ms.toFixed(0)} ms): ${JSON.stringify(indexing)}`);
    assert.match(first.content[0].text, /^still indexing: /);
    // once the files are counted, answers say how far indexing has got
    let counted: Answer | undefined;
    await eventually(async () => (counted = await search('orchestrator')).structuredContent?.indexing?.filesTotal !== 0, 'the files are counted', {
      timeoutMs: 60_000,
    });
    const progress = counted!.structuredContent?.indexing;
    if (progress) {
      assert.equal(progress.filesTotal, COPIES);
      assert.match(counted!.content[0].text, /^still indexing: \d+ of 120 transcript files, newest first; results may be incomplete/);
    }
    // the newest session is searchable while the oldest is not yet
    let newest: Answer | undefined;
    await eventually(async () => ((newest = await search(`copymark${COPIES - 1}`)).structuredContent?.count ?? 0) === 1, 'the newest session is found', {
      timeoutMs: 120_000,
      intervalMs: 25,
    });
    if (newest!.structuredContent?.indexing) assert.equal((await search('copymark0')).structuredContent?.count, 0, 'the oldest comes last');
    // the oldest session, the load's last, is read on demand when asked for by id: never "not found" while indexing
    const oldestId = `claude-code:${copyId(0)}`;
    const got = (await client.callTool({ name: 'get_session', arguments: { filename: oldestId, format: 'json' } })) as Answer & { isError?: boolean };
    assert.ok(!got.isError, got.content[0].text);
    assert.match(got.content[0].text, /copymark0\b/);
    const page = (await client.callTool({ name: 'read_session', arguments: { docid: oldestId } })) as { structuredContent?: { found: boolean; text: string } };
    assert.equal(page.structuredContent?.found, true);
    await eventually(async () => (await search('orchestrator')).structuredContent?.indexing === undefined, 'indexing finishes', {
      timeoutMs: 120_000,
      intervalMs: 100,
    });
    const whole = await search('copymark0');
    assert.equal(whole.structuredContent?.count, 1);
    assert.doesNotMatch(whole.content[0].text, /still indexing/);
  } finally {
    await client.close();
  }
});
