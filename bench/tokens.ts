/**
 * `npm run tokens`: tokens of typical MCP answers (o200k, gpt-tokenizer) as pretty JSON, compact JSON, and the text we
 * send (TOON where smaller), over the real sample transcripts.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer';
import { render } from '../src/core/format.js';
import { createLibrary } from '../src/core/library.js';
import { silentLogger } from '../src/core/log.js';

const corpus = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpus');
const library = createLibrary({
  logger: silentLogger,
  env: {},
  roots: [
    { source: 'codearchitect', path: join(corpus, 'codearchitect', 'sessions') },
    { source: 'claude-code', path: join(corpus, 'claude-code') },
    { source: 'codex', path: join(corpus, 'codex') },
  ],
});
await library.load();

const answers: [string, unknown][] = [
  ['search_session, 10 hits ("test failure fix")', library.search('test failure fix', { limit: 10 })],
  ['search_session, 10 hits ("CLAUDE.md project setup")', library.search('CLAUDE.md project setup', { limit: 10 })],
  ['get_session list, 50 sessions', library.list({ limit: 50 })],
  ['get_session list, all sessions', library.list({})],
  ['search_context, 10 blocks', library.searchContext('how do we run the tests', { limit: 10, threshold: 0.5 })],
];
const one = await library.get('python', { format: 'json' });
answers.push(['get_session, one session (messages)', { messages: one.session.messages }]);

console.log('| answer | pretty JSON | compact JSON | sent (format) | saving vs pretty | saving vs compact |');
console.log('|---|---|---|---|---|---|');
let totals = [0, 0, 0];
for (const [name, value] of answers) {
  const pretty = countTokens(JSON.stringify(value, null, 2));
  const compact = countTokens(JSON.stringify(value));
  const chosen = render(value, 'auto');
  const sent = countTokens(chosen.text);
  totals = [totals[0] + pretty, totals[1] + compact, totals[2] + sent];
  const pct = (a: number, b: number): string => `${(((a - b) / a) * 100).toFixed(1)}%`;
  console.log(`| ${name} | ${pretty} | ${compact} | ${sent} (${chosen.format}) | ${pct(pretty, sent)} | ${pct(compact, sent)} |`);
}
const pct = (a: number, b: number): string => `${(((a - b) / a) * 100).toFixed(1)}%`;
console.log(`| all of the above | ${totals[0]} | ${totals[1]} | ${totals[2]} | ${pct(totals[0], totals[2])} | ${pct(totals[1], totals[2])} |`);
