/**
 * The other sources read as their tools mean them (docs/FORMATS.md): last activity is the session's last record, not
 * its first. Transcripts are written here from the formats.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ampSource } from '../../src/core/ingest/sources/amp.js';
import { geminiSource } from '../../src/core/ingest/sources/gemini.js';
import { kimiSource } from '../../src/core/ingest/sources/kimi.js';
import { MemoryLogger } from '../../src/core/log.js';
import type { SourceAdapter } from '../../src/core/ingest/sources/types.js';
import { ROOT, tempDir, writeFile } from '../helpers.js';

const ctx = { logger: new MemoryLogger(), env: {} };
const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
async function readOne(source: SourceAdapter, root: string, file: string) {
  const [session] = await source.readFile(file, root, ctx);
  assert.ok(session, `${file} gives a session`);
  return session;
}

test("last activity: Amp's traces' end, Gemini CLI's last record or $set, Kimi's turn end", async () => {
  const amp = tempDir();
  const thread = {
    id: 'T-1',
    created: Date.parse('2026-03-02T09:00:00Z'),
    title: 'Cache the rates',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'cache the exchange rates' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Caching them for an hour.' }] },
    ],
    meta: { traces: [{ name: 'agent', startTime: '2026-03-02T09:00:01Z', endTime: '2026-03-02T09:14:30Z' }] },
  };
  const a = await readOne(ampSource, amp, writeFile(join(amp, 'threads', 'T-1.json'), JSON.stringify(thread)));
  assert.equal(a.updated, '2026-03-02T09:14:30.000Z');

  const gemini = tempDir();
  const chat = jsonl([
    { sessionId: 'g1', projectHash: 'p', startTime: '2026-03-02T09:00:00Z', lastUpdated: '2026-03-02T09:00:00Z' },
    { id: 'm1', type: 'user', content: [{ text: 'why is the build slow?' }], timestamp: '2026-03-02T09:00:05Z' },
    { id: 'm2', type: 'gemini', content: 'The cache is cold.', timestamp: '2026-03-02T09:00:09Z' },
    { id: 'm3', type: 'user', content: [{ text: 'warm it in CI' }], timestamp: '2026-03-02T09:20:00Z' },
    { $set: { lastUpdated: '2026-03-02T09:21:00Z' } },
  ]);
  const g = await readOne(geminiSource, gemini, writeFile(join(gemini, 'p', 'chats', 'session-2026-03-02T09-00-g1.jsonl'), chat));
  assert.equal(g.updated, '2026-03-02T09:21:00.000Z');

  const kimiRoot = join(ROOT, 'test', 'fixtures', 'kimi', '.kimi', 'sessions');
  const wire = join(kimiRoot, '3f2a9c', 'b8e1d2c4-5a6b-4c7d-8e9f-0a1b2c3d4e5f', 'wire.jsonl');
  const k = await readOne(kimiSource, kimiRoot, wire);
  assert.equal(k.updated, new Date(1762502406.0 * 1000).toISOString(), "the turn's end (TurnEnd), after its last part");
});
