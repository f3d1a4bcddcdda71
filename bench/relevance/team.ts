/**
 * `npm run bench:relevance -- --team`: the judged set answered by the team archive. A PostgreSQL cluster of the
 * bench's own (test/pg-cluster.ts) gets every sample session pushed by one role, and the queries are answered by team
 * search: PostgreSQL candidates, our BM25F in the client; the query words' forms and near spellings come from the
 * local index, as in `search --team` (here the same sessions: the person pushed their own history).
 */
import { startCluster } from '../../test/pg-cluster.js';
import { migrate } from '../../src/core/team/schema.js';
import { TeamDatabase } from '../../src/core/team/connection.js';
import { projectName, pushSessions } from '../../src/core/team/push.js';
import { searchTeam } from '../../src/core/team/search.js';
import { parseTeamId, type GlobalStats } from '../../src/core/team/view.js';
import type { ParsedSession, Session } from '../../src/core/model.js';
import type { Vocabulary } from '../../src/core/index/expand.js';
import { planQuery } from '../../src/core/answer/search.js';
import { parseQuery } from '../../src/core/index/query.js';

/** Every query's team answer (session ids as the local library knows them), computed before the sync rankers run. */
export async function teamAnswers(sessions: ParsedSession[], queries: string[], vocabulary: Vocabulary & GlobalStats): Promise<Map<string, string[]>> {
  const cluster = await startCluster();
  try {
    const admin = new TeamDatabase(cluster.url('team_admin'));
    await admin.withClient((client) => migrate(client));
    await admin.close();
    await cluster.createRole('judge', 'IN ROLE session_search_member');
    const db = new TeamDatabase(cluster.url('judge'), { queryTimeoutMs: 300_000 });
    // every session under one folder that is pushed (the relevance set filters on nothing)
    const placed = sessions.map((s) =>
      Object.assign(Object.create(s) as Session, { project: `/corpus/${projectName(s.project) || s.source}`, turns: s.turns }),
    );
    await pushSessions(db, placed, { machine: 'bench', projects: ['/corpus'], turns: (s) => (s as ParsedSession).turns });
    const answers = new Map<string, string[]>();
    for (const q of queries) {
      try {
        answers.set(
          q,
          (await searchTeam(db, planQuery(vocabulary, parseQuery(q), { limit: 10 }, {}), { limit: 10 }, vocabulary)).map((r) => parseTeamId(r.id)?.id ?? r.id),
        );
      } catch {
        answers.set(q, []);
      }
    }
    await db.close();
    return answers;
  } finally {
    cluster.stop();
  }
}
