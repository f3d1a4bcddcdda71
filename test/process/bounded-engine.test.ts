/**
 * A heavy history's first load through the engine, as users run it: a command starts the engine (the default), with a
 * small heap (the NODE_OPTIONS a command is given reach the engine it starts), over real-shaped sessions whose
 * vocabulary grows as real tool output's does (every hash, id and number new, identifiers per project). The engine
 * loads them all to a complete answer that finds what it indexed, writing its snapshot as it goes, without stopping
 * for memory; the next command is answered by the same engine from what it holds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { realCorpus } from '../../bench/real-corpus.js';
import { enginePaths } from '../../src/engine/paths.js';
import { ROOT, tempDir } from '../helpers.js';

const HEAP_MB = 192;
const SESSIONS = 600;

test(`an engine started with a ${HEAP_MB} MB heap loads ${SESSIONS} sessions of a growing vocabulary to a complete answer`, async () => {
  const c = await realCorpus(tempDir(), SESSIONS, true, { projects: 1, vocabulary: 'growing' });
  assert.ok(c.bytes > 250 * 1024 * 1024, `${(c.bytes / 1048576).toFixed(0)} MB of transcripts`);
  const data = tempDir();
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: c.home, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` };
  delete env.SESSION_SEARCH_ENGINE;
  const roots = c.roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]);
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args, '--data', data], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  try {
    const [first, second] = [c.known[0], c.known[3]];
    const r = cli('search', first.query, '--json', ...roots);
    assert.equal(r.status, 0, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr.slice(-2000)}`);
    const answer = JSON.parse(r.stdout) as { results: { id: string }[]; indexing?: unknown };
    assert.equal(answer.indexing, undefined, 'a complete answer, not one stopped for memory');
    assert.equal(answer.results[0]?.id, first.id);
    const log = readFileSync(enginePaths(data).log, 'utf8');
    assert.match(log, new RegExp(`indexed ${SESSIONS} sessions`));
    assert.match(log, /snapshot written/);
    assert.doesNotMatch(log, /memory ran short/);
    // the engine ran with the heap the command was given
    const pid = Number(readFileSync(enginePaths(data).pidFile, 'utf8'));
    assert.match(readFileSync(`/proc/${pid}/environ`, 'utf8'), new RegExp(`--max-old-space-size=${HEAP_MB}`));
    const again = cli('search', second.query, '--json', '--limit', '1', ...roots);
    assert.equal((JSON.parse(again.stdout) as { results: { id: string }[] }).results[0]?.id, second.id, second.query);
  } finally {
    cli('engine', 'stop');
  }
});
