/**
 * A heavy history's first load in a small heap: the built CLI, run under `--max-old-space-size` well below what a load
 * of the whole folder would hold, indexes several hundred MB of real-shaped sessions (most of them in one project
 * folder, as a heavy user's are) to a complete answer; killed with SIGKILL halfway, it resumes from what it had
 * committed under the same limit and completes. The library runs in the command's own process here
 * (SESSION_SEARCH_ENGINE=off), so that the heap limit and the kill are the load's; an engine runs the same library.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { realCorpus, type RealCorpus } from '../../bench/real-corpus.js';
import { ROOT, tempDir } from '../helpers.js';

/** Far below what a load of this history held at once before loads were bounded (the parsed folder, ~600 MB). */
const HEAP_MB = 192;
const SESSIONS = 700;

let made: RealCorpus | undefined;
async function corpus(): Promise<RealCorpus> {
  made ??= await realCorpus(tempDir(), SESSIONS, true, { projects: 1 });
  return made;
}

function cliArgs(c: RealCorpus, data: string, ...args: string[]): string[] {
  return [
    `--max-old-space-size=${HEAP_MB}`,
    join(ROOT, 'dist', 'cli.cjs'),
    ...args,
    ...c.roots.flatMap((r) => ['--root', `${r.source}=${r.path}`]),
    '--data',
    data,
  ];
}

function run(c: RealCorpus, data: string, ...args: string[]) {
  const r = spawnSync(process.execPath, cliArgs(c, data, ...args), {
    encoding: 'utf8',
    env: { ...process.env, HOME: c.home, SESSION_SEARCH_ENGINE: 'off' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

interface Answer {
  results: { id: string }[];
  indexing?: unknown;
}

test(`a first load of ~${SESSIONS} real-shaped sessions completes in a ${HEAP_MB} MB heap, and finds what it indexed`, async () => {
  const c = await corpus();
  assert.ok(c.bytes > 300 * 1024 * 1024, `${(c.bytes / 1048576).toFixed(0)} MB of transcripts`);
  const data = tempDir();
  const known = c.known[0];
  const r = run(c, data, 'search', known.query, '--json', '--verbose');
  assert.equal(r.code, 0, `exit ${r.code} ${r.signal ?? ''}: ${r.stderr.slice(-2000)}`);
  const answer = JSON.parse(r.stdout) as Answer;
  assert.equal(answer.indexing, undefined, 'a complete answer, not one stopped for memory');
  assert.equal(answer.results[0]?.id, known.id);
  assert.match(r.stderr, new RegExp(`indexed ${c.sessions} sessions`));
  assert.match(r.stderr, /snapshot written/);
});

test(`a first load killed with SIGKILL halfway resumes from what it committed, in the same ${HEAP_MB} MB heap`, async () => {
  const c = await corpus();
  // the known items whose query names both of the planted session's codenames: no decoy holds both, so each is first
  const named = c.known.filter((k) => [3, 6].includes(k.query.split(' ').length));
  const data = tempDir();
  const child = spawn(process.execPath, cliArgs(c, data, 'search', named[1].query, '--json'), {
    env: { ...process.env, HOME: c.home, SESSION_SEARCH_ENGINE: 'off' },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let finished = false;
  void exited.then(() => (finished = true));
  // killed once the load has committed a checkpoint, as a crash or a closed window would
  const snapshot = join(data, 'index', 'snapshot.bin');
  const deadline = Date.now() + 600_000;
  while (!existsSync(snapshot) && !finished && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(finished, false, 'still loading when its first checkpoint was written');
  child.kill('SIGKILL');
  await exited;

  const r = run(c, data, 'search', named[1].query, '--json', '--verbose');
  assert.equal(r.code, 0, `exit ${r.code} ${r.signal ?? ''}: ${r.stderr.slice(-2000)}`);
  const answer = JSON.parse(r.stdout) as Answer;
  assert.equal(answer.indexing, undefined);
  assert.equal(answer.results[0]?.id, named[1].id);
  const summary = /indexed (\d+) sessions: (\d+) files read, (\d+) unchanged since the snapshot/.exec(r.stderr);
  assert.ok(summary, r.stderr.slice(-2000));
  const [, sessions, read, unchanged] = summary.map(Number);
  assert.equal(sessions, c.sessions, 'every session, once');
  assert.ok(unchanged > 0 && read > 0, `resumed: ${unchanged} files from the snapshot, ${read} read again`);
  // and nothing was lost or doubled: a search for every known item finds it first
  for (const k of named.slice(0, 5)) {
    const again = JSON.parse(run(c, data, 'search', k.query, '--json', '--limit', '1').stdout) as Answer;
    assert.equal(again.results[0]?.id, k.id, k.query);
  }
});
