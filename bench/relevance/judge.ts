/**
 * Resolves the locators of queries.json into judgments.json: every session whose own user prompts contain a locator's
 * text (case and spacing ignored), or whose id it names (`id:`), gets its grade (the highest when several match).
 * Run after editing queries.json: `node --import tsx bench/relevance/judge.ts`. A locator that matches nothing fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus, RELEVANCE_DIR, type RelevanceFile } from './corpus.js';

const file = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'queries.json'), 'utf8')) as RelevanceFile;
const library = await loadCorpus();
const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ');
const prompts = [...library.sessions.values()].map((s) => ({
  id: s.id,
  text: norm(
    library.turns
      .all(s)
      .filter((t) => t.role === 'user')
      .map((t) => t.text)
      .join('\n'),
  ),
}));
const judgments: Record<string, Record<string, number>> = {};
let failed = 0;
for (const q of file.queries) {
  const graded: Record<string, number> = {};
  for (const [locator, grade] of q.rel) {
    const hits = locator.startsWith('id:') ? prompts.filter((p) => p.id === locator.slice(3)) : prompts.filter((p) => p.text.includes(norm(locator)));
    if (!hits.length) {
      console.error(`${q.id}: "${locator}" matches no session`);
      failed++;
    }
    for (const h of hits) graded[h.id] = Math.max(graded[h.id] ?? 0, grade);
  }
  judgments[q.id] = Object.fromEntries(Object.entries(graded).sort(([a], [b]) => a.localeCompare(b)));
  console.log(`${q.id} ${q.kind.padEnd(8)} ${String(Object.keys(graded).length).padStart(3)} judged  ${q.query}`);
}
await library.close();
if (failed) process.exit(1);
writeFileSync(join(RELEVANCE_DIR, 'judgments.json'), `${JSON.stringify(judgments, null, 1)}\n`);
