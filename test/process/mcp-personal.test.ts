/**
 * The MCP tools that keep what a person adds (tags, preferences) and the archive's search view (groupBy workspace),
 * through a real client in memory.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tempDir } from '../helpers.js';
import { serveInMemory, type ToolResult } from '../mcp-memory.js';

describe('tags, preferences and workspaces', () => {
  let client: Client;
  let call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>;
  before(async () => {
    ({ client, call } = await serveInMemory(tempDir(), [
      { type: 'user', uuid: 'u1', timestamp: '2025-11-20T10:00:00Z', message: { role: 'user', content: 'dump the giant build log' } },
      {
        type: 'assistant',
        uuid: 'a1',
        timestamp: '2025-11-20T10:00:01Z',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'The build log is 5 MB.' }] },
      },
    ]));
  });
  after(() => client.close());

  test('tag_session tags a session and the search tools filter by it; untag_session removes it; bad tags are refused', async () => {
    const hit = (await call('search_session', { query: 'authentication', limit: 1 })).structuredContent as { results: { id: string }[] };
    const id = hit.results[0].id;
    const tagged = (await call('tag_session', { id, tags: ['Auth Decision', 'keep'] })).structuredContent as { tags: string[]; derived: string[] };
    assert.deepEqual(tagged.tags, ['auth-decision', 'keep']);
    assert.ok(tagged.derived.includes('codearchitect'), tagged.derived.join());
    const only = (await call('search_session', { query: 'authentication', tags: ['auth-decision'] })).structuredContent as {
      results: { id: string; tags: string[] }[];
    };
    assert.deepEqual(
      only.results.map((r) => r.id),
      [id],
    );
    assert.deepEqual(only.results[0].tags.slice(0, 2), ['auth-decision', 'keep']);
    const blocks = (await call('search_context', { query: 'login PostgreSQL', tags: ['keep'], threshold: 0 })).structuredContent as {
      results: { sessionId: string; tags: string[] }[];
    };
    assert.ok(blocks.results.length > 0 && blocks.results.every((b) => b.sessionId === id && b.tags.includes('keep')), JSON.stringify(blocks).slice(0, 300));
    for (const [bad, why] of [
      ['a/b', /holds "\/"/],
      ['x'.repeat(60), /longer than 50/],
      ['tab\there', /control characters/],
    ] as const) {
      const refused = await call('tag_session', { id, tags: ['fine', bad] });
      assert.ok(refused.isError, `${bad}: ${JSON.stringify(refused).slice(0, 200)}`);
      assert.match((JSON.parse(refused.content[0].text) as { message: string }).message, why);
    }
    const unknown = await call('tag_session', { id: 'codearchitect:no-such-session', tags: ['x'] });
    assert.ok(unknown.isError, JSON.stringify(unknown).slice(0, 200));
    const gone = (await call('untag_session', { id, tags: ['KEEP', 'auth decision', 'never-given'] })).structuredContent as { tags: string[] };
    assert.deepEqual(gone.tags, []);
    const none = (await call('search_session', { query: 'authentication', tags: ['auth-decision'] })).structuredContent as { count: number };
    assert.equal(none.count, 0);
  });

  test("get_preferences learns from the person's prompts with evidence; update_preferences sets and clears by hand; bad input is refused", async () => {
    await call('store_session', {
      conversation:
        'User: Always use 2 spaces for indentation in YAML files.\nAssistant: Noted: 2 spaces.\nUser: Please run the tests with vitest before you commit.\nAssistant: ok',
      topic: 'yaml style',
    });
    const learned = (await call('get_preferences', {})).structuredContent as {
      preferences: Record<string, string>;
      evidence: Record<string, { text: string; sessions: number; turns: string[] }[]>;
      extractedFrom: number;
      manual: string[];
    };
    assert.match(learned.preferences.formatting ?? '', /Always use 2 spaces for indentation in YAML files/);
    const [item] = learned.evidence.formatting;
    assert.equal(item.sessions, 1);
    assert.match(item.turns[0], /yaml-style#0$/, 'the evidence links to the turn');
    assert.ok(learned.extractedFrom >= 1);
    assert.ok(!JSON.stringify(learned).includes('Noted: 2 spaces'), "the agents' replies are not read");
    const set = (await call('update_preferences', { preferences: { testing: 'Vitest, Playwright', 'Error Handling': 'explicit errors' } }))
      .structuredContent as {
      updated: boolean;
      preferences: Record<string, string>;
      manual: string[];
    };
    assert.equal(set.updated, true);
    assert.equal(set.preferences.testing, 'Vitest, Playwright', 'a value set by hand wins');
    assert.equal(set.preferences.error_handling, 'explicit errors');
    assert.deepEqual(set.manual.sort(), ['error_handling', 'testing']);
    const cleared = (await call('update_preferences', { preferences: { testing: null } })).structuredContent as {
      manual: string[];
      preferences: Record<string, string>;
    };
    assert.deepEqual(cleared.manual, ['error_handling']);
    assert.notEqual(cleared.preferences.testing, 'Vitest, Playwright');
    for (const bad of [{}, { testing: 'x'.repeat(50 * 1024) }, { 'no/slash': 'x' }]) {
      const refused = await call('update_preferences', { preferences: bad });
      assert.ok(refused.isError, JSON.stringify(bad).slice(0, 40));
    }
    const size = JSON.stringify((await call('get_preferences', {})).structuredContent).length;
    assert.ok(size < 8000, `the answer stays short (${size} characters)`);
  });

  test('search_session with groupBy workspace answers the matching exchanges by workspace; a one-letter query is refused', async () => {
    const r = (await call('search_session', { query: 'giant build log', groupBy: 'workspace' })).structuredContent as {
      results: unknown[];
      workspacesSearched: number;
      turnsMatched: number;
      workspaces: { worktree: string; count: number; hits: { user: string; turnId: string }[] }[];
    };
    assert.ok(r.results.length > 0 && r.workspacesSearched >= 2, JSON.stringify(r).slice(0, 300));
    const w = r.workspaces.find((g) => g.worktree === '/w')!;
    assert.ok(w.count >= 1 && w.hits[0].user === 'dump the giant build log', JSON.stringify(w).slice(0, 300));
    assert.ok(r.turnsMatched >= w.count);
    const short = await call('search_session', { query: 'g', groupBy: 'workspace' });
    assert.ok(short.isError);
  });
});
