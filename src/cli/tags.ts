/** `tag`, `untag` and `tags`: the tags a person gives sessions, kept in the data folder (core/store/tags.ts). */
import type { TagResponse } from '../core/contracts.js';
import type { SessionLibrary } from '../core/library.js';
import { UsageError } from './args.js';

export async function tagCommand(library: SessionLibrary, command: 'tag' | 'untag', positionals: string[]): Promise<{ value: TagResponse; text: string }> {
  const [name, ...tags] = positionals;
  if (!name || !tags.length)
    throw new UsageError(`${command} needs a session name or id and at least one tag, e.g. session-search ${command} claude-code:1a2b decision`);
  const value = command === 'tag' ? await library.tag(name, tags) : await library.untag(name, tags);
  const given = value.tags.length ? value.tags.join(', ') : '(none)';
  return { value, text: `${value.id}\n  tags: ${given}\n  derived: ${value.derived.join(', ')}\n` };
}

export function tagsList(library: SessionLibrary): { value: { tags: { tag: string; sessions: number }[] }; text: string } {
  const tags = library.userTags();
  const text = tags.length
    ? `${tags.map((t) => `${t.tag}  ${t.sessions} session${t.sessions === 1 ? '' : 's'}`).join('\n')}\n`
    : 'No tags given yet: add one with session-search tag <name-or-id> <tag>.\n';
  return { value: { tags }, text };
}
