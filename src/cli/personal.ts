/**
 * `tag`, `untag` and `tags`: the tags a person gives sessions, kept in the data folder (core/store/tags.ts); and
 * `preferences`: what the sessions show about how the person likes to work, and the values set by hand.
 */
import type { PreferencesResponse, TagResponse } from '../core/contracts.js';
import type { Engine } from '../engine/api.js';
import { UsageError } from './args.js';

export async function tagCommand(engine: Engine, command: 'tag' | 'untag', positionals: string[]): Promise<{ value: TagResponse; text: string }> {
  const [name, ...tags] = positionals;
  if (!name || !tags.length)
    throw new UsageError(`${command} needs a session name or id and at least one tag, e.g. session-search ${command} claude-code:1a2b decision`);
  const value = command === 'tag' ? await engine.tag(name, tags) : await engine.untag(name, tags);
  const given = value.tags.length ? value.tags.join(', ') : '(none)';
  return { value, text: `${value.id}\n  tags: ${given}\n  derived: ${value.derived.join(', ')}\n` };
}

/** `tags`: the tags people gave, with how many sessions carry each. */
export function tagsList(tags: { tag: string; sessions: number }[]): { value: { tags: { tag: string; sessions: number }[] }; text: string } {
  const text = tags.length
    ? `${tags.map((t) => `${t.tag}  ${t.sessions} session${t.sessions === 1 ? '' : 's'}`).join('\n')}\n`
    : 'No tags given yet: add one with session-search tag <name-or-id> <tag>.\n';
  return { value: { tags }, text };
}

/** `preferences` (what was learned, with evidence), `preferences set <category> <value…>`, `preferences clear <category>`. */
export async function preferencesCommand(
  engine: Engine,
  positionals: string[],
  project: string | undefined,
): Promise<{ value: PreferencesResponse; text: string }> {
  const [action, category, ...words] = positionals;
  let value: PreferencesResponse;
  if (action === 'set' || action === 'clear') {
    if (!category || (action === 'set' && !words.length))
      throw new UsageError('preferences set <category> <value…> or preferences clear <category>, e.g. preferences set testing Vitest');
    if (action === 'clear') {
      const now = await engine.preferences();
      if (!(category in now.preferences) && !now.manual.includes(category)) {
        const known = Object.keys(now.preferences);
        throw new UsageError(
          `No preference "${category}" to clear.${known.length ? ` Preferences now: ${known.join(', ')}.` : ' None is learned or set yet.'}`,
        );
      }
    }
    value = await engine.updatePreferences({ [category]: action === 'set' ? words.join(' ') : null });
  } else if (action) throw new UsageError(`preferences takes set or clear, not "${action}".`);
  else value = await engine.preferences(project);
  const lines = Object.entries(value.preferences).map(([k, v]) => `${k}${value.manual.includes(k) ? ' (set by hand)' : ''}: ${v}`);
  const text = lines.length
    ? `${lines.join('\n')}\n\nfrom ${value.extractedFrom} session${value.extractedFrom === 1 ? '' : 's'}; --json shows the evidence (sessions and turns)\n`
    : 'Nothing learned yet: preferences come from statements in your prompts ("always…", "prefer…"), the frameworks and test tools your sessions show.\n';
  return { value, text };
}
