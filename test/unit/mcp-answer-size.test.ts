/**
 * search_session has no default limit (its contract: all matches), and the MCP SDK's clients close the connection on a
 * message over 10 MB: an answer is cut to the best results that fit, and says how many matched; get_session's listing
 * of every session, and a session too long for one answer, likewise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { getResponseSchema, listResponseSchema, searchResponseSchema, type SearchResponse } from '../../src/core/contracts.js';
import { fitResults, fitSession, ok } from '../../src/mcp/respond.js';
import { fittingCount } from '../../src/core/answer/fit.js';
import { fromToon, toToon } from '../../src/core/format.js';

/** A search's answer of `n` results shaped as the engine gives them (three snippets of about 300 characters each). */
function answerOf(n: number, note?: string): SearchResponse {
  const results = Array.from({ length: n }, (_, i) => ({
    id: `claude-code:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    source: 'claude-code' as const,
    filename: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    topic: `why does the retry loop ${i} give up after the third attempt`,
    date: '2026-06-13T10:00:00.000Z',
    file: `/home/dev/.claude/projects/-work-app/00000000-0000-4000-8000-${String(i).padStart(12, '0')}.jsonl`,
    size: 48_000 + i,
    relevanceScore: 1 - i / (n + 1),
    matchCount: 3,
    matchedTerms: ['retry'],
    matchedSnippets: Array.from({ length: 3 }, (_, k) => `…the ${k} retry ${'backoff waits and tries again '.repeat(10)}…`),
    snippetTurnIds: ['t1', 't4', 't9'],
    snippetHighlights: [[[8, 13]], [[8, 13]], [[8, 13]]] as [number, number][][],
    topicHighlights: [[13, 18]] as [number, number][],
    project: '/work/app',
    resumeCommand: `claude --resume 00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  }));
  return { success: true, results, count: n, query: 'retry', mode: 'lexical', ...(note ? { note } : {}) };
}

/** The tool's answer as the client reads it off stdio, through the SDK's own buffer (10 MB by default). */
function readByClient(value: object): JSONRPCMessage {
  const buffer = new ReadBuffer();
  buffer.append(Buffer.from(serializeMessage({ jsonrpc: '2.0', id: 1, result: ok(value) } as JSONRPCMessage)));
  return buffer.readMessage()!;
}

test("a search answer too large for an MCP client's buffer is cut to the best results that fit, and says how many matched", () => {
  const all = answerOf(8000, 'ranked by words.');
  assert.throws(() => readByClient(all), /exceeded maximum size/, 'the whole answer is over what the client reads');
  const fitted = fitResults(all, 'results') as SearchResponse & { matched?: number };
  const read = readByClient(fitted) as unknown as { result: { structuredContent: unknown } };
  const structured = searchResponseSchema.strict().parse(read.result.structuredContent);
  assert.ok(fitted.count > 100 && fitted.count < 8000, String(fitted.count));
  assert.equal(structured.count, structured.results.length);
  assert.equal(structured.matched, 8000);
  assert.deepEqual(
    structured.results.map((r) => r.id),
    all.results.slice(0, fitted.count).map((r) => r.id),
    'the best first, in their order',
  );
  assert.match(structured.note ?? '', /^ranked by words\. 8000 sessions match; the best \d+ are here .*ask again with a limit/);
});

test('a search grouped by workspace keeps its results whole and cuts its groups to those with the most matches that fit', () => {
  const hit = (w: number, k: number) => ({
    sessionId: `claude-code:s${w}-${k}`,
    topic: 'the retry loop',
    turnId: `claude-code:s${w}-${k}#3`,
    date: '2026-06-13T10:00:00.000Z',
    user: `why does the retry give up ${'after the third attempt '.repeat(12)}`,
    reply: `the retry ${'backoff waits and tries again '.repeat(24)}`,
    userHighlights: [[10, 15]] as [number, number][],
    replyHighlights: [[4, 9]] as [number, number][],
  });
  const workspaces = Array.from({ length: 300 }, (_, w) => ({
    project: `/work/app${w}`,
    worktree: `/work/app${w}`,
    name: `app${w}`,
    count: 3000 - w,
    hits: Array.from({ length: 50 }, (_, k) => hit(w, k)),
  }));
  const all = { ...answerOf(10), workspaces, workspacesSearched: 300, turnsMatched: 600_000 };
  assert.throws(() => readByClient(all), /exceeded maximum size/, 'the groups alone are over what the client reads');
  const fitted = fitResults(all, 'results') as typeof all & { matched?: number; note?: string };
  const read = readByClient(fitted) as unknown as { result: { structuredContent: unknown } };
  const structured = searchResponseSchema.strict().parse(read.result.structuredContent);
  assert.deepEqual(structured.results, all.results, 'every result, whole');
  assert.equal(structured.matched, undefined);
  const kept = structured.workspaces?.length ?? 0;
  assert.ok(kept > 10 && kept < 300, String(kept));
  assert.deepEqual(structured.workspaces, workspaces.slice(0, kept), 'the workspaces with the most matches, whole and in order');
  assert.match(structured.note ?? '', new RegExp(`^300 workspaces hold matches; the ${kept} with the most are here .*project, date or source filter`));
});

test('an answer that fits is given as it is', () => {
  for (const n of [0, 1, 10, 1000]) {
    const answer = answerOf(n);
    assert.equal(fitResults(answer, 'results'), answer, `${n} results`);
  }
  const other = { success: true, sessions: [] };
  assert.equal(fitResults(other, 'sessions'), other);
});

test('a listing of every session too large for an MCP client is cut to the newest that fit, and says how many there are', () => {
  const sessions = Array.from({ length: 40_000 }, (_, i) => ({
    id: `claude-code:00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    source: 'claude-code' as const,
    project: '/work/app',
    filename: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    topic: `why does the retry loop ${i} give up after the third attempt`,
    date: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
    file: `/home/dev/.claude/projects/-work-app/00000000-0000-4000-8000-${String(i).padStart(12, '0')}.jsonl`,
    size: 48_000 + i,
    turns: 12,
    resumeCommand: `claude --resume 00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    tags: ['testing', 'claude-code', 'app'],
  }));
  const all = { success: true as const, sessions, count: sessions.length, format: 'toon' as const };
  assert.throws(() => readByClient(all), /exceeded maximum size/, 'the whole listing is over what the client reads');
  const fitted = fitResults(all, 'sessions') as typeof all & { matched?: number; note?: string };
  const read = readByClient(fitted) as unknown as { result: { structuredContent: typeof fitted } };
  const listed = listResponseSchema.extend({ matched: z.number(), note: z.string() }).strict().parse(read.result.structuredContent);
  assert.equal(listed.count, listed.sessions.length);
  assert.equal(listed.matched, 40_000);
  assert.deepEqual(
    listed.sessions.map((s) => s.id),
    sessions.slice(0, listed.count).map((s) => s.id),
    'the newest first, in their order',
  );
  assert.match(listed.note, /^40000 sessions; the newest \d+ are listed/);
});

test('a session too long for one answer gives its first turns that fit and says how to read the rest', () => {
  const messages = Array.from({ length: 20_000 }, (_, i) => ({
    role: (i % 2 ? 'assistant' : 'user') as 'assistant' | 'user',
    kind: 'conversation' as const,
    content: `turn ${i}: ${'the retry loop waits, then tries the request again '.repeat(8)}`,
  }));
  const session = {
    id: 'claude-code:41bd030c-4e87-48df-8317-d2f188d1889e',
    source: 'claude-code' as const,
    filename: '41bd030c-4e87-48df-8317-d2f188d1889e',
    topic: 'the retry loop',
    date: '2026-06-13T10:00:00.000Z',
    file: '/home/dev/.claude/projects/-work-app/41bd030c-4e87-48df-8317-d2f188d1889e.jsonl',
    content: messages.map((m) => `## ${m.role}\n\n${m.content}\n`).join('\n'),
    messages,
    format: 'json' as const,
  };
  const whole = { success: true as const, session };
  assert.throws(() => readByClient(whole), /exceeded maximum size/, 'the whole session is over what the client reads');
  const fitted = fitSession(whole);
  const read = readByClient(fitted) as unknown as { result: { structuredContent: unknown } };
  const got = getResponseSchema.parse(read.result.structuredContent).session;
  assert.ok(got.messages.length > 100 && got.messages.length < 20_000, String(got.messages.length));
  assert.deepEqual(got.messages, messages.slice(0, got.messages.length), 'the first turns, whole and in order');
  assert.ok(session.content.startsWith(got.content) && got.content.length > 0);
  assert.match(
    got.cut ?? '',
    /^The session has 20000 turns; the first \d+ are here .* read_session with docid "claude-code:41bd030c-4e87-48df-8317-d2f188d1889e" pages the whole session\.$/,
  );
  // in TOON its content is its messages encoded: the first turns' rows, as many as the messages
  const toon = fitSession({ success: true, session: { ...session, format: 'toon', content: toToon({ messages }) } }).session;
  assert.deepEqual(fromToon(toon.content), { messages: toon.messages });
  assert.ok(toon.messages.length < 20_000);
  const short = { success: true as const, session: { ...session, messages: messages.slice(0, 10), content: 'short' } };
  assert.equal(fitSession(short), short, 'a session that fits is given as it is');
});

test('the items kept are the longest first run whose JSON fits the budget, for any sizes and budget', () => {
  let seed = 7;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let round = 0; round < 500; round++) {
    const items = Array.from({ length: next(40) }, () => 'x'.repeat(next(200)));
    const budget = next(3000);
    const used = next(100);
    const kept = fittingCount(items, budget, used);
    const size = (k: number): number => used + items.slice(0, k).reduce((sum, item) => sum + JSON.stringify(item).length + 1, 0);
    assert.ok(kept === 0 || size(kept) <= budget, `${kept} kept fit`);
    assert.ok(kept === items.length || size(kept + 1) > budget, `one more than ${kept} does not fit`);
  }
});
