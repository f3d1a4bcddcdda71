/**
 * A session's tags: the ones a person gave it (store/tags.ts), then the ones it carries itself: its topics
 * (ingest/topics.ts), its source, its project folder's name and its branch. A filter keeps what carries any of a
 * list of tags (the seed's reading), or all of them when asked.
 */
import { basename } from 'node:path';
import type { Session } from '../model.js';
import { sessionTopics } from '../ingest/topics.js';
import type { TurnStore } from '../store/turn-store.js';
import type { LibraryView } from './view.js';

/** The topics of a session read before topics were found at ingest: found once, from its turns, and kept on it. */
function topicsOf(s: Session, store: TurnStore): readonly string[] {
  s.topics ??= sessionTopics(s.topic, store.all(s));
  return s.topics;
}

/** The tags a session carries by itself; without `store`, topics not found yet are left out (no turn is read). */
export function derivedTags(s: Session, store?: TurnStore): string[] {
  const tags = [...(store ? topicsOf(s, store) : (s.topics ?? [])), s.source];
  if (s.project) tags.push(basename(s.project.replace(/[\\/]+$/, '')).toLowerCase());
  if (s.branch) tags.push(s.branch.toLowerCase());
  return [...new Set(tags)];
}

export function sessionTags(lib: LibraryView, s: Session, find = true): string[] {
  return [...new Set([...lib.tags.of(s.id), ...derivedTags(s, find ? lib.turns : undefined)])];
}

/** Tags as given, normalised as they are kept (lower case, spaces as -). */
export function normalisedTags(wanted: readonly string[] | undefined): string[] {
  return [...new Set((wanted ?? []).map((t) => t.trim().toLowerCase().replace(/\s+/g, '-')).filter(Boolean))];
}

/** How many of the tags asked for a session carries (those a person gave are looked at first: no turn read). */
export function tagsCarried(lib: LibraryView, wanted: readonly string[] | undefined): ((s: Session) => number) | undefined {
  const tags = normalisedTags(wanted);
  if (!tags.length) return undefined;
  return (s) => {
    const user = lib.tags.of(s.id);
    const given = tags.filter((t) => user.includes(t)).length;
    if (given === tags.length) return given;
    const all = sessionTags(lib, s);
    return tags.filter((t) => all.includes(t)).length;
  };
}

/** A filter on tags (any of them; every one with `all`), or undefined when none are asked for. */
export function tagFilter(lib: LibraryView, wanted: readonly string[] | undefined, all = false): ((s: Session) => boolean) | undefined {
  const carried = tagsCarried(lib, wanted);
  if (!carried) return undefined;
  const needed = all ? normalisedTags(wanted).length : 1;
  return (s) => carried(s) >= needed;
}

/**
 * The share of several tags asked for (any of them) that a session carries, for ranking (more of them first);
 * undefined when that does not order anything (one tag, or all of them required).
 */
export function tagShare(lib: LibraryView, wanted: readonly string[] | undefined, all = false): ((s: Session) => number) | undefined {
  const n = normalisedTags(wanted).length;
  const carried = tagsCarried(lib, wanted);
  if (!carried || all || n < 2) return undefined;
  return (s) => carried(s) / n;
}
