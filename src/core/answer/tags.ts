/**
 * A session's tags: the ones a person gave it (store/tags.ts), then the ones it carries itself: its topics
 * (ingest/topics.ts), its source, its project folder's name and its branch. Filters ask for all of a list of tags.
 */
import { basename } from 'node:path';
import type { Session } from '../model.js';
import { sessionTopics } from '../ingest/topics.js';
import type { LibraryView } from './view.js';

/** The topics of a session read before topics were found at ingest: found once, from its turns, and kept on it. */
function topicsOf(s: Session): readonly string[] {
  s.topics ??= sessionTopics(s.topic, s.turns);
  return s.topics;
}

/** The tags a session carries by itself; `find: false` leaves out topics not found yet (no turn is read). */
export function derivedTags(s: Session, find = true): string[] {
  const tags = [...(find ? topicsOf(s) : (s.topics ?? [])), s.source];
  if (s.project) tags.push(basename(s.project.replace(/[\\/]+$/, '')).toLowerCase());
  if (s.branch) tags.push(s.branch.toLowerCase());
  return [...new Set(tags)];
}

export function sessionTags(lib: LibraryView, s: Session, find = true): string[] {
  return [...new Set([...lib.tags.of(s.id), ...derivedTags(s, find)])];
}

/** A filter on tags (all of them), or undefined when none are asked for. */
export function tagFilter(lib: LibraryView, wanted: readonly string[] | undefined): ((s: Session) => boolean) | undefined {
  const tags = (wanted ?? []).map((t) => t.trim().toLowerCase().replace(/\s+/g, '-')).filter(Boolean);
  if (!tags.length) return undefined;
  return (s) => {
    const user = lib.tags.of(s.id);
    if (tags.every((t) => user.includes(t))) return true;
    const all = sessionTags(lib, s);
    return tags.every((t) => all.includes(t));
  };
}
