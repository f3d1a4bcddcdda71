/**
 * `get_preferences`: what a person's sessions show about how they like to work, learned from the evidence each
 * session keeps (ingest/preference-evidence.ts), counted by the sessions that show it, with links to the turns; a
 * manual value (store/preferences.ts) wins over the learned one. Kept short for an agent to read at the start of a
 * task: at most five items a category, two turn links each.
 */
import type { PreferencesResponse } from '../contracts.js';
import { preferenceEvidence } from '../ingest/preference-evidence.js';
import type { Session } from '../model.js';
import type { LibraryView } from './view.js';

const ITEMS = 5;
const LINKS = 2;
/** Sessions read before evidence was kept find theirs on demand: the newest ones, up to this many a call. */
const BACKFILL = 300;
const ORDER = ['coding_style', 'formatting', 'frameworks', 'testing', 'architecture', 'error_handling', 'answers', 'communication', 'git', 'instructions'];

/** General statements and what several sessions show count most. */
function weight(text: string, sessions: number): number {
  return sessions * 2 + (GENERAL.test(text) ? 3 : 0) + (text.length <= 24 ? 1 : 0);
}
const GENERAL = /^(?:please\s+)?(?:always|never|avoid|prefer|keep|be)\b|\b(?:i|we) (?:prefer|always|never)\b/i;

export function learnPreferences(lib: LibraryView, options: { project?: string } = {}): PreferencesResponse {
  const sessions = [...lib.sessions.values()]
    .filter((s) => !options.project || lib.worktrees.inProject(s.project, options.project, false))
    .sort((a, b) => (a.updated < b.updated ? 1 : -1));
  let backfilled = 0;
  const evidenceOf = (s: Session) => {
    const kept = lib.preferencesOf(s);
    if (kept || backfilled >= BACKFILL) return kept ?? [];
    backfilled++;
    s.preferences = preferenceEvidence(lib.turns.all(s));
    return s.preferences;
  };
  const found = new Map<string, Map<string, { text: string; sessions: Set<string>; turns: string[] }>>();
  let extractedFrom = 0;
  let lastUpdated = '';
  for (const s of sessions) {
    const evidence = evidenceOf(s);
    if (!evidence.length) continue;
    extractedFrom++;
    if (s.updated > lastUpdated) lastUpdated = s.updated;
    for (const e of evidence) {
      const byText = found.get(e.category) ?? new Map();
      found.set(e.category, byText);
      const key = e.text.toLowerCase();
      const item = byText.get(key) ?? { text: e.text, sessions: new Set<string>(), turns: [] };
      byText.set(key, item);
      if (!item.sessions.has(s.id) && item.turns.length < LINKS) item.turns.push(`${s.id}#${e.turn}`);
      item.sessions.add(s.id);
    }
  }
  const manual = lib.preferences.read();
  const preferences: Record<string, string> = {};
  const evidence: PreferencesResponse['evidence'] = {};
  const categories = [...new Set([...ORDER, ...found.keys(), ...Object.keys(manual.manual)])].filter((c) => found.has(c) || manual.manual[c]);
  for (const category of categories) {
    const ranked = [...(found.get(category)?.values() ?? [])]
      .map((i) => ({ text: i.text, sessions: i.sessions.size, turns: i.turns, weight: weight(i.text, i.sessions.size) }))
      .sort((a, b) => b.weight - a.weight || a.text.localeCompare(b.text))
      .slice(0, ITEMS);
    if (ranked.length) evidence[category] = ranked.map(({ weight: _, ...item }) => item);
    // the summary keeps what is said generally (always, never, prefer…) or shown by more than one session
    const learned = ranked.filter((i) => i.weight >= 3).map((i) => i.text);
    const value = manual.manual[category] ?? learned.join('; ');
    if (value) preferences[category] = value;
  }
  return {
    preferences,
    evidence,
    manual: Object.keys(manual.manual),
    extractedFrom,
    lastUpdated: [lastUpdated, manual.updated ?? ''].sort().at(-1) || new Date(0).toISOString(),
  };
}
