/**
 * `npm run bench:team [-- --sizes 10000,50000]`: the team archive on a PostgreSQL cluster of the bench's own
 * (test/pg-cluster.ts, 127.0.0.1), in one run. Five simulated machines (five roles) push sessions recombined from the
 * real sample transcripts (the ones the relevance set reads), each project shared with a group a lead belongs to; then
 * the lead's team search (PostgreSQL candidates, our BM25F and snippets in the client, 10 results) is timed for 1- to
 * 4-word queries beside local search by the same engine in process over the same sessions. Sizes are cumulative: the
 * second size pushes the sessions the first lacks.
 */
import { parseArgs } from 'node:util';
import { corpusRoots, loadLibrary } from '../test/helpers.js';
import { startCluster } from '../test/pg-cluster.js';
import { migrate } from '../src/core/team/schema.js';
import { TeamDatabase } from '../src/core/team/connection.js';
import { pushSessions } from '../src/core/team/push.js';
import { share } from '../src/core/team/access.js';
import { TeamArchive } from '../src/core/team/archive.js';
import { teamView } from '../src/core/team/view.js';
import { indexedFields } from '../src/core/library/catalog.js';
import { planQuery, searchSessions, type QueryPlan } from '../src/core/answer/search.js';
import { SearchIndex } from '../src/core/index/engine.js';
import { parseQuery } from '../src/core/index/query.js';
import { isStopWord, tokenize } from '../src/core/index/tokenize.js';
import type { ParsedSession, Turn } from '../src/core/model.js';
import type { SearchResponse } from '../src/core/contracts.js';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000,50000' } } });
const sizes = values.sizes.split(',').map(Number);
const MACHINES = 5;
const PROJECTS = 20;
const BATCH = 1000;
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

let seed = 42;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

const { library } = await loadLibrary(corpusRoots);
const real = [...library.sessions.values()].map((s) => ({ s, turns: library.turns.all(s) })).filter((r) => r.turns.length > 0);
const sampleBytes = real.reduce((n, r) => n + r.turns.reduce((m, t) => m + t.text.length, 0), 0);
console.error(`${real.length} sample sessions, ${(sampleBytes / real.length / 1024).toFixed(1)} KB of text on average`);

/** The i-th session: a real one's turns (shared, not copied) on machine i % 5, with one prompt of its own. */
function synth(i: number): ParsedSession {
  const { s, turns } = real[(i * 7919) % real.length];
  const m = i % MACHINES;
  const extra: Turn = { id: '', role: 'user', kind: 'conversation', text: `follow-up ${i} for ticket T${i}` };
  return {
    ...{ source: s.source, nativeId: `bench-${i}`, topic: s.topic, filename: s.filename, file: s.file, size: s.size },
    id: `${s.source}:bench-${i}`,
    created: s.created,
    updated: s.updated,
    firstDay: s.firstDay,
    lastDay: s.lastDay,
    project: `/home/dev${m}/project-${i % PROJECTS}`,
    turns: [...turns, extra],
  };
}

const queries: string[] = [];
for (let n = 0; queries.length < 80; n++) {
  const words = tokenize(real[Math.floor(random() * real.length)].s.topic).filter((w) => w.length > 3 && !isStopWord(w) && !/^\d+$/.test(w));
  if (!words.length) continue;
  const count = 1 + (n % 4);
  queries.push(
    Array.from({ length: Math.min(count, words.length) }, () => words[Math.floor(random() * words.length)])
      .filter((w, k, all) => all.indexOf(w) === k)
      .join(' '),
  );
}

const cluster = await startCluster();
const rows: string[] = [];
try {
  const admin = new TeamDatabase(cluster.url('team_admin'));
  await admin.withClient((client) => migrate(client));
  await admin.close();
  await cluster.sql('CREATE ROLE team_everyone NOLOGIN');
  await cluster.createRole('lead', 'IN ROLE session_search_member, team_everyone');
  const dbs: TeamDatabase[] = [];
  for (let m = 0; m < MACHINES; m++) {
    await cluster.createRole(`dev${m}`, 'IN ROLE session_search_member');
    dbs.push(new TeamDatabase(cluster.url(`dev${m}`), { queryTimeoutMs: 600_000 }));
    for (let p = 0; p < PROJECTS; p++) await share(dbs[m], `project-${p}`, 'team_everyone');
  }
  const team = new TeamArchive(cluster.url('lead'), 'lead-laptop');
  let pushed = 0;
  for (const size of sizes) {
    let bytes = 0;
    const t0 = performance.now();
    for (let from = pushed; from < size; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, size - from) }, (_, k) => synth(from + k));
      for (const s of batch) bytes += s.turns.reduce((n, t) => n + t.text.length, 0);
      await Promise.all(
        Array.from({ length: MACHINES }, (_, m) =>
          pushSessions(dbs[m], batch, { machine: `machine-${m}`, projects: [`/home/dev${m}`], turns: (s) => (s as ParsedSession).turns }),
        ),
      );
    }
    const pushSeconds = (performance.now() - t0) / 1000;
    const added = size - pushed;
    pushed = size;
    const [{ mb }] = await cluster.sql<{ mb: string }>('SELECT pg_database_size(current_database()) / 1048576.0 AS mb');
    const empty: SearchResponse = { success: true, results: [], count: 0, query: '' };
    // (no local library here: the queries are planned over an empty vocabulary, no other forms)
    const plan = (q: string): QueryPlan => planQuery(new SearchIndex(), parseQuery(q), { limit: 10 }, {});
    for (const q of queries.slice(0, 5)) await team.search(empty, plan(q), { limit: 10 });
    const teamMs: number[] = [];
    let teamHits = 0;
    for (const q of queries) {
      const t = performance.now();
      const answer = await team.search({ ...empty, query: q }, plan(q), { limit: 10 });
      teamMs.push(performance.now() - t);
      if (answer.teamNotice) throw new Error(answer.teamNotice);
      teamHits += answer.results.length;
    }
    const all = Array.from({ length: size }, (_, i) => synth(i));
    const local = teamView(all, (s) => indexedFields((s as ParsedSession).turns));
    const localMs: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      searchSessions(local, planQuery(local.index, parseQuery(q), { limit: 10, mode: 'lexical' }, {}), q);
      localMs.push(performance.now() - t);
    }
    const line = `| ${size} | ${MACHINES} | ${(bytes / 1048576).toFixed(0)} | ${pushSeconds.toFixed(1)} | ${(added / pushSeconds).toFixed(0)} | ${(bytes / 1048576 / pushSeconds).toFixed(1)} | ${Number(mb).toFixed(0)} | ${pct(teamMs, 0.5).toFixed(1)} / ${pct(teamMs, 0.95).toFixed(1)} | ${pct(localMs, 0.5).toFixed(1)} / ${pct(localMs, 0.95).toFixed(1)} | ${(teamHits / queries.length).toFixed(1)} |`;
    rows.push(line);
    console.error(line);
  }
  await team.close();
  for (const db of dbs) await db.close();
} finally {
  cluster.stop();
  await library.close();
}
console.log(
  [
    '| sessions | machines | MB of turns pushed | push s | sessions/s | MB/s | database MB | team search p50 / p95 ms (PostgreSQL candidates + our ranking, 10 results) | local search p50 / p95 ms (same engine in process) | results per query |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
