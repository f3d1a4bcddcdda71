/**
 * Every session of the sample corpus, every source: no title and no first prompt is text its tool injected (harness
 * text, context, notifications). The list of titles is written to the test's output for a reader to look over.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { firstPrompt } from '../../src/core/model.js';
import { CORPUS, loadLibrary } from '../helpers.js';

const ROOTS = [
  { source: 'codearchitect', path: join(CORPUS, 'codearchitect', 'sessions') },
  { source: 'claude-code', path: join(CORPUS, 'claude-code') },
  { source: 'codex', path: join(CORPUS, 'codex') },
  { source: 'copilot-chat', path: join(CORPUS, 'copilot-chat') },
  { source: 'gemini', path: join(CORPUS, 'gemini') },
  { source: 'cursor', path: join(CORPUS, 'cursor') },
  { source: 'opencode', path: join(CORPUS, 'opencode') },
  { source: 'specstory', path: join(CORPUS, 'specstory') },
  { source: 'aider', path: join(CORPUS, 'aider') },
] as const;

const INJECTED =
  /^(This session is being continued|<local-command-caveat>|<local-command-stdout>|<local-command-result>|<task-notification>|Stop hook feedback:|<ide_opened_file>|<ide_selection>|<system-reminder>|Caveat: The messages below|<environment_context>|<user_instructions>|# AGENTS\.md|<INSTRUCTIONS>|<recommended_plugins>|# Files mentioned by the user:|# Context from my IDE setup:|<turn_aborted>|<skill-context>|<permissions)/;

test('no title or first prompt in the sample corpus starts with text a tool injected', async (t) => {
  const { library } = await loadLibrary([...ROOTS]);
  try {
    const titles = [...library.sessions.values()].map((s) => ({ id: s.id, topic: s.topic, prompt: firstPrompt(s) ?? '' }));
    const sources = new Set([...library.sessions.values()].map((s) => s.source));
    assert.deepEqual([...sources].sort(), ROOTS.map((r) => r.source).sort(), 'every source of the corpus gives sessions');
    for (const title of titles) t.diagnostic(`${title.id}  ${title.topic}`);
    assert.deepEqual(
      titles.filter((x) => INJECTED.test(x.topic) || INJECTED.test(x.prompt)),
      [],
    );
  } finally {
    await library.close();
  }
});
