/** search_session over the library: BM25F candidates, filters, phrase checks, ordering, snippets. */
import type { SearchOptions, SearchResponse, SearchResult } from './api.js';
import { overlaps, type DayRange } from './dates.js';
import type { ParsedQuery } from './index/query.js';
import { findSnippets, phraseMatcher, turnsMatch } from './index/snippets.js';
import { tokenize } from './index/tokenize.js';
import type { Session } from './model.js';
import type { SearchIndex } from './index/engine.js';
import { repositoryRoot } from './worktrees.js';
import { rawArchived } from './store/turns.js';
import { findSnippetsRaw } from './store/session-layout.js';

export interface LibraryView {
  sessions: Map<string, Session>;
  index: Pick<SearchIndex, 'score' | 'idf'>;
}

/** Whether `project` is the filter folder, inside it, or a git worktree of the same repository. */
export function inProject(project: string | undefined, filter: string): boolean {
  if (!project) return false;
  const norm = (p: string): string => p.replace(/[\\/]+$/, '').replace(/\\/g, '/').toLowerCase();
  const within = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);
  if (within(norm(project), norm(filter))) return true;
  return within(norm(repositoryRoot(project)), norm(repositoryRoot(filter)));
}

function containsPhrase(session: Session, matcher: RegExp): boolean {
  return matcher.test(session.topic) || session.turns.some((t) => matcher.test(t.text));
}

export function sessionFilter(options: SearchOptions, range: DayRange, query?: ParsedQuery): (s: Session) => boolean {
  const phrases = (query?.phrases ?? []).map(phraseMatcher);
  const excludedPhrases = (query?.excludedPhrases ?? []).map(phraseMatcher);
  return (s) => {
    if (options.source && s.source !== options.source) return false;
    if (options.project && !inProject(s.project, options.project)) return false;
    if (!overlaps(range, s.firstDay, s.lastDay)) return false;
    if (phrases.some((p) => !containsPhrase(s, p))) return false;
    if (excludedPhrases.some((p) => containsPhrase(s, p))) return false;
    if ((options.role || options.kind) && query && !turnsMatch(s.turns, query, options.role, options.kind)) return false;
    return true;
  };
}

export function rankSessions(lib: LibraryView, query: ParsedQuery, options: SearchOptions, range: DayRange) {
  const required = [...new Set(query.phrases.flatMap((words) => tokenize(words.join(' '))))];
  const accept = sessionFilter(options, range, query);
  return lib.index.score(query.terms, {
    required,
    excluded: query.excluded,
    limit: options.limit,
    accept: (key) => {
      const s = lib.sessions.get(key);
      return !!s && accept(s);
    },
  });
}

export function searchSessions(lib: LibraryView, query: ParsedQuery, raw: string, options: SearchOptions, range: DayRange): SearchResponse {
  const ranked = rankSessions(lib, query, options, range);
  const results: SearchResult[] = ranked.map((hit) => {
    const s = lib.sessions.get(hit.key)!;
    const how = { role: options.role, kind: options.kind, weight: (t: string) => lib.index.idf(t) };
    const raw = rawArchived(s);
    let snippets;
    try {
      snippets = raw && findSnippetsRaw(raw, s.id, query, how);
    } finally {
      raw?.close();
    }
    snippets ??= findSnippets(s.turns, query, how);
    const result: SearchResult = {
      id: s.id,
      source: s.source,
      filename: s.filename,
      topic: s.topic,
      date: s.created,
      file: s.file,
      size: s.size,
      relevanceScore: Math.round(hit.relevance * 1000) / 1000,
      matchedSnippets: snippets.map((x) => x.text),
      snippetTurnIds: snippets.map((x) => x.turnId),
      matchCount: hit.matchCount,
    };
    if (s.project) result.project = s.project;
    if (s.branch) result.branch = s.branch;
    if (s.sourceDeleted) result.sourceDeleted = true;
    return result;
  });
  return { success: true, results, count: results.length, query: raw };
}
