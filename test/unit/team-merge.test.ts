/** A search over the local and the team archive: one list by relevance, and a count only where it is whole. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeAnswer } from '../../src/core/team/archive.js';
import type { SearchResponse, SearchResult } from '../../src/core/contracts.js';

const result = (id: string, relevanceScore: number, owner?: string, machine?: string): SearchResult =>
  ({ id, relevanceScore, ...(owner ? { owner, machine } : {}) }) as SearchResult;
const self = { role: 'carol', machine: 'desk' };
const local: SearchResponse = {
  success: true,
  results: [result('a', 0.9), result('b', 0.5), result('c', 0.4)],
  count: 3,
  matched: 40,
  query: 'websocket',
};

test("the team's sessions are merged by relevance, local first on ties, one's own from this machine once", () => {
  const team = [result('team:alice:1', 0.5, 'alice', 'laptop'), result('team:carol:desk:a', 0.95, 'carol', 'desk'), result('team:bob:2', 0.7, 'bob', 'pc')];
  const merged = mergeAnswer(local, team, self, 4);
  assert.deepEqual(
    merged.results.map((r) => r.id),
    ['a', 'team:bob:2', 'b', 'team:alice:1'],
  );
  assert.equal(merged.count, 4);
  // the local count says nothing of how many the team's archive matched
  assert.equal(merged.matched, undefined);
});

test('where the team found nothing but what this machine shared, the local count stands', () => {
  const merged = mergeAnswer(local, [result('team:carol:desk:a', 0.95, 'carol', 'desk')], self, 3);
  assert.deepEqual(
    merged.results.map((r) => r.id),
    ['a', 'b', 'c'],
  );
  assert.equal(merged.matched, 40);
});
