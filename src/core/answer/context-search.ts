/**
 * search_context: blocks (turns) instead of sessions. The score is calibrated so a threshold means the same for every
 * query: it is the share of the query's information (IDF-weighted terms) that the block itself contains, times a
 * small factor for how well its session ranks. 1.0 = every query term is in the block.
 */
import type { ContextBlock, ContextResponse, SearchMode } from '../contracts.js';
import type { DayRange } from '../dates.js';
import type { ParsedQuery } from '../index/query.js';
import { findSnippets, matcherFor } from '../index/snippets.js';
import { forEachToken } from '../index/tokenize.js';
import type { Session, TurnKind } from '../model.js';
import { planQuery, rankSessions } from './search.js';
import type { LibraryView } from './view.js';
import { basename } from 'node:path';

export interface ContextQuery {
  sessions?: string[];
  tags?: string[];
  types?: TurnKind[];
  limit: number;
  threshold: number;
  source?: string;
  project?: string;
  mode?: SearchMode;
}

/** Tags we can derive without a model: the source, the project folder's name, the branch and the block's kind. */
export function sessionTags(session: Session): string[] {
  const tags: string[] = [session.source];
  if (session.project) tags.push(basename(session.project.replace(/[\\/]+$/, '')).toLowerCase());
  if (session.branch) tags.push(session.branch.toLowerCase());
  return tags;
}

const SESSIONS_EXAMINED = 50;

export function searchContext(lib: LibraryView, query: ParsedQuery, range: DayRange, options: ContextQuery): ContextResponse {
  const started = performance.now();
  const wanted = options.sessions?.length ? new Set(options.sessions) : undefined;
  const wantedTags = (options.tags ?? []).map((t) => t.toLowerCase());
  const ranked = rankSessions(lib, planQuery(lib.index, query, { source: options.source, project: options.project, mode: options.mode }, range)).filter(
    (hit) => {
      const s = lib.sessions.get(hit.key)!;
      if (wanted && !wanted.has(s.id) && !wanted.has(s.nativeId)) return false;
      return wantedTags.every((t) => sessionTags(s).includes(t));
    },
  );
  const weights = new Map(query.terms.map((t) => [t, lib.index.idf(t)]));
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const matcher = matcherFor(query);
  const blocks: ContextBlock[] = [];
  if (!total || !matcher) return { results: blocks, totalMatches: 0, searchTime: Math.round(performance.now() - started) };
  const best = ranked[0]?.relevance || 1;
  for (const hit of ranked.slice(0, SESSIONS_EXAMINED)) {
    const s = lib.sessions.get(hit.key)!;
    for (const turn of s.turns) {
      if (options.types?.length && !options.types.includes(turn.kind)) continue;
      matcher.lastIndex = 0;
      if (!matcher.test(turn.text)) continue;
      const present = new Set<string>();
      forEachToken(turn.text, (tok) => weights.has(tok) && present.add(tok));
      let covered = 0;
      for (const t of present) covered += weights.get(t)!;
      const score = (covered / total) * (0.85 + (0.15 * hit.relevance) / best);
      if (score < options.threshold) continue;
      const snippet = findSnippets([turn], query, { max: 1 })[0]?.text ?? turn.text.slice(0, 300);
      blocks.push({
        blockId: turn.id,
        sessionId: s.id,
        sessionName: s.topic,
        type: turn.kind,
        score: Math.round(score * 1000) / 1000,
        snippet,
        tags: [...sessionTags(s), turn.kind],
        createdAt: turn.timestamp ?? s.created,
      });
    }
  }
  blocks.sort((a, b) => b.score - a.score || (a.createdAt < b.createdAt ? 1 : -1));
  return { results: blocks.slice(0, options.limit), totalMatches: blocks.length, searchTime: Math.round(performance.now() - started) };
}
