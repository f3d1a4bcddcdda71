/**
 * Property-based robustness of every source parser: damaged input (truncation, flipped bytes, invalid UTF-8, huge
 * lines, deep nesting, wrong types in known fields) never lets an error escape a load, and the rest of the root still
 * loads. Every adapter of the registry is damaged, in a session of its own format (test/planted.ts); the real samples
 * of ../shared/corpus are damaged too.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { SourceId } from '../../src/core/model.js';
import { openCore } from '../../src/core/library/open.js';
import { MemoryLogger } from '../../src/core/log.js';
import { CORPUS, tempDir } from '../helpers.js';
import { SOURCES } from '../../src/core/ingest/sources/registry.js';
import { writePlantedSessions } from '../planted.js';

/** For each source: a real sample (or a small valid file), where it must sit under a root, and a healthy neighbour. */
const CASES: { source: SourceId; sample: () => Buffer; path: string }[] = [
  { source: 'codearchitect', sample: () => readFileSync(join(CORPUS, 'codearchitect/sessions/2024-08-06/since/full.md')), path: '2024-08-06/damaged/full.md' },
  {
    source: 'claude-code',
    sample: () => readFileSync(join(CORPUS, 'claude-code/claude-code-log/session_b.jsonl')),
    path: 'proj/11111111-2222-4333-8444-555555555555.jsonl',
  },
  {
    source: 'codex',
    sample: () => readFileSync(join(CORPUS, 'codex/codemie/turn-2-synthetic.jsonl')),
    path: 'rollout-2026-01-01T00-00-00-0197aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl',
  },
  { source: 'copilot-chat', sample: () => readFileSync(join(CORPUS, 'copilot-chat/export/simple-chat.export.json')), path: 'damaged.export.json' },
  { source: 'gemini', sample: () => readFileSync(join(CORPUS, 'gemini/codemie/edge/timestamp-mismatch-session.json')), path: 'p/chats/session-damaged.json' },
  {
    source: 'cursor',
    sample: () => readFileSync(join(CORPUS, 'cursor/cursor-history/workspaceStorage/state.vscdb')).subarray(0, 64 * 1024),
    path: 'ws/state.vscdb',
  },
  {
    source: 'cline',
    sample: () =>
      Buffer.from(
        JSON.stringify([
          { ts: 1, type: 'say', say: 'task', text: 'hello task' },
          { ts: 2, type: 'say', say: 'text', text: 'answer' },
        ]),
      ),
    path: 'tasks/1772442900000/ui_messages.json',
  },
  {
    source: 'opencode',
    sample: () => readFileSync(join(CORPUS, 'opencode/codemie/storage/session/test-project/test-session-1.json')),
    path: 'storage/session/test-project/test-session-1.json',
  },
  {
    source: 'specstory',
    sample: () => readFileSync(join(CORPUS, 'specstory/lore-fixtures/projA/.specstory/history/2026-05-01_10-00-00Z-can-we-run-a.md')),
    path: '2026-05-01_10-00-00Z-damaged.md',
  },
  { source: 'aider', sample: () => readFileSync(join(CORPUS, 'aider/zen-mcp-server/.aider.chat.history.md')), path: '.aider.chat.history.md' },
];

const damage = fc.record({
  cut: fc.double({ min: 0, max: 1, noNaN: true }),
  flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
  insert: fc.constantFrom(
    '',
    '\n\xff\xfe\xc3\x28 invalid utf-8\n',
    `\n${'['.repeat(50_000)}\n`,
    `\n{"type":"user","message":{"content":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}}\n`,
    `\n${'x'.repeat(2_000_000)}\n`,
    '\n{"type":"assistant","message":{"id":7,"content":{"type":"text"}},"uuid":[],"timestamp":{}}\n',
    '\n{"kind":2,"k":["requests",99,"response"],"v":"not a list"}\n',
    '\n{"$rewindTo":123}\n{"$set":"x"}\n',
    '\n_**User**_\n\n```\nunclosed fence\n',
    '\n# aider chat started at 2099-99-99 99:99:99\n#### \n',
    '\u202e\u0000\u0007',
  ),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Everything a source needs around the damaged file (OpenCode keeps messages and parts in sibling folders). */
function layOut(source: SourceId, dir: string): void {
  mkdirSync(dir, { recursive: true });
  if (source === 'opencode') cpSync(join(CORPUS, 'opencode/codemie/storage'), join(dir, 'storage'), { recursive: true });
  for (const c of CASES) if (c.source === source) mkdirSync(dirname(join(dir, c.path)), { recursive: true });
}

function mutate(sample: Buffer, d: { cut: number; flips: [number, number][]; insert: string; at: number }): Buffer {
  const cut = d.cut > 0.8 ? sample.length : Math.floor(sample.length * d.cut);
  const bytes = Buffer.from(sample.subarray(0, cut));
  for (const [where, value] of d.flips) if (bytes.length) bytes[Math.floor(where * (bytes.length - 1))] = value;
  const at = Math.floor(bytes.length * d.at);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(d.insert, 'latin1'), bytes.subarray(at)]);
}

for (const c of CASES) {
  test(`${c.source}: damaged input never escapes a load and never hangs; a healthy file beside it still loads`, async () => {
    const root = tempDir();
    const healthy = c.sample();
    const healthyPath = join(root, 'healthy-copy');
    // a second, intact copy in its own root, which must load whatever happens to the damaged one
    layOut(c.source, healthyPath);
    writeFileSync(
      join(healthyPath, c.path),
      c.source === 'cursor' ? readFileSync(join(CORPUS, 'cursor/cursor-history/workspaceStorage/state.vscdb')) : healthy,
    );
    const baseline = openCore({ roots: [{ source: c.source, path: healthyPath }], logger: new MemoryLogger(), env: {} });
    await baseline.load();
    const healthyCount = baseline.sessions.size;
    assert.ok(healthyCount > 0, 'the intact sample loads');
    await fc.assert(
      fc.asyncProperty(damage, async (d) => {
        layOut(c.source, join(root, 'damaged'));
        writeFileSync(join(root, 'damaged', c.path), mutate(healthy, d));
        const logger = new MemoryLogger();
        const library = openCore({
          roots: [
            { source: c.source, path: healthyPath },
            { source: c.source, path: join(root, 'damaged') },
          ],
          logger,
          env: {},
        });
        try {
          await library.load();
          const fromHealthy = [...library.sessions.values()].filter((s) => s.file.startsWith(healthyPath));
          assert.equal(fromHealthy.length, healthyCount);
          assert.doesNotThrow(() => library.search('hello test'));
        } finally {
          await library.close();
        }
      }),
      { numRuns: 25, seed: 20261129 },
    );
    await baseline.close();
  });
}

const PLANTED = tempDir();
const planted = writePlantedSessions(PLANTED, 'plant the fuzz prompt', 'the fuzz output');

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

for (const adapter of SOURCES) {
  test(`${adapter.id} (from the registry): a damaged copy of any of its files never escapes a load; the intact root beside it loads whole`, async () => {
    const root = (await planted).find((r) => r.source === adapter.id);
    assert.ok(root, `every registered adapter has a planted session (test/planted.ts): ${adapter.id} has none`);
    const baseline = openCore({ roots: [root], logger: new MemoryLogger(), env: {} });
    await baseline.load();
    const healthyCount = baseline.sessions.size;
    assert.ok(healthyCount > 0, 'the intact sample loads');
    await baseline.close();
    const files = filesUnder(root.path).filter((f) => statSync(f).size > 0);
    await fc.assert(
      fc.asyncProperty(damage, fc.nat(), async (d, pick) => {
        const damaged = join(tempDir(), 'damaged');
        cpSync(root.path, damaged, { recursive: true });
        const original = files[pick % files.length];
        writeFileSync(join(damaged, relative(root.path, original)), mutate(readFileSync(original), d));
        const library = openCore({ roots: [root, { source: adapter.id, path: damaged }], logger: new MemoryLogger(), env: {} });
        await library.load();
        const fromHealthy = [...library.sessions.values()].filter((s) => !s.file.startsWith(damaged));
        assert.equal(fromHealthy.length, healthyCount);
        assert.doesNotThrow(() => library.search('fuzz prompt'));
        await library.close();
        rmSync(dirname(damaged), { recursive: true, force: true });
      }),
      { numRuns: 8, seed: 20261201 },
    );
  });
}
