/**
 * `npm run bench:relevance`: the judged relevance set (queries.json, judgments.json) over ../shared/corpus, ranked by
 * our engine and, in the same run over the same sessions, by SQLite FTS5 (bm25 with our field weights, OR of the
 * words) and MiniSearch (OR, prefix and fuzzy 0.2, title boosted). nDCG@10, MRR@10 and Recall@10 per kind, on the
 * test split (the one never tuned on) and apart on the tuning split. Queries of kind `none` have no answer: for them
 * the share answered with nothing is reported.
 *
 * With your own embedding model (`-- --embed-endpoint URL --embed-model NAME`, or `-- --embed-folder PATH`), the rows of
 * ours are given twice, without it and with it, in the same run, with the time embedding the corpus took.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { ftsQuery } from '../real-fts5.js';
import { isTuning, score } from './metrics.js';
import { loadCorpus, RELEVANCE_DIR, type Kind, type RelevanceFile } from './corpus.js';
import type { SearchMode } from '../../src/core/contracts.js';
import { checkEmbedConfig, describeEmbed, type EmbedConfig } from '../../src/core/embed/config.js';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'test' },
    show: { type: 'string' },
    team: { type: 'boolean', default: false },
    ids: { type: 'string' },
    'embed-endpoint': { type: 'string' },
    'embed-model': { type: 'string' },
    'embed-folder': { type: 'string' },
    'embed-weights': { type: 'string', default: '0.25,0.5,1' },
  },
});
const embed: EmbedConfig | undefined =
  values['embed-endpoint'] || values['embed-folder']
    ? checkEmbedConfig({
        endpoint: values['embed-endpoint'],
        model: values['embed-model'],
        folder: values['embed-folder'],
        allowRemote: process.env.SESSION_SEARCH_EMBED_ALLOW_REMOTE === '1',
      })
    : undefined;
const file = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'queries.json'), 'utf8')) as RelevanceFile;
const judgments = JSON.parse(readFileSync(join(RELEVANCE_DIR, 'judgments.json'), 'utf8')) as Record<string, Record<string, number>>;

const library = await loadCorpus();
const sessions = [...library.sessions.values()];
const body = (kinds: (k: string) => boolean) => (s: (typeof sessions)[number]) =>
  library.turns
    .all(s)
    .filter((t) => kinds(t.kind))
    .map((t) => t.text)
    .join('\n');
const content = body((k) => k === 'conversation');
const messages = body((k) => k !== 'conversation');

const db = new Database(':memory:');
db.exec("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, topic, content, messages, tokenize='unicode61')");
const insert = db.prepare('INSERT INTO docs(id, topic, content, messages) VALUES (?, ?, ?, ?)');
db.transaction(() => sessions.forEach((s) => insert.run(s.id, s.topic, content(s), messages(s))))();
const fts = db.prepare('SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 3, 2, 1) LIMIT 10');

const mini = new MiniSearch<{ id: string; topic: string; content: string; messages: string }>({
  fields: ['topic', 'content', 'messages'],
  searchOptions: { boost: { topic: 3, content: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'OR' },
});
mini.addAll(sessions.map((s) => ({ id: s.id, topic: s.topic, content: content(s), messages: messages(s) })));

type Ranker = (q: string) => string[];
const ask = (q: string, mode: SearchMode): string[] => {
  try {
    return library.search(q, { limit: 10, mode }).results.map((r) => r.id);
  } catch {
    return [];
  }
};
const ours =
  (mode: SearchMode): Ranker =>
  (q) =>
    ask(q, mode);
const rankers: Record<string, Ranker> = {
  'ours (hybrid, the default)': ours('hybrid'),
  'ours (lexical)': ours('lexical'),
  'ours (semantic)': ours('semantic'),
  'FTS5 bm25': (q) => {
    try {
      return (fts.all(ftsQuery(q)) as { id: string }[]).map((r) => r.id);
    } catch {
      return [];
    }
  },
  MiniSearch: (q) =>
    mini
      .search(q)
      .slice(0, 10)
      .map((r) => String(r.id)),
};

if (embed) Object.assign(rankers, await withModel(embed));

const KINDS: Kind[] = ['known', 'topic', 'question', 'exact', 'forms'];
// --ids <regex>: only the queries whose id matches (e.g. '^[^x]' for the 164 queries before the x-series was added)
const only = values.ids ? new RegExp(values.ids) : undefined;
const chosen = file.queries
  .filter((q) => (values.split === 'tune' ? isTuning(q) : values.split === 'all' ? true : !isTuning(q)))
  .filter((q) => !only || only.test(q.id));
if (values.team) {
  const { teamAnswers } = await import('./team.js');
  const answers = await teamAnswers(
    sessions.map((s) => ({ ...s, turns: library.turns.all(s) })),
    chosen.map((q) => q.query),
    library.index,
  );
  rankers['team archive (PostgreSQL candidates, our ranking)'] = (q) => answers.get(q) ?? [];
}
/**
 * The rows with the user's model: the corpus embedded first (timed), then each query's vector asked before it is
 * ranked. The rows without it are answered before the model is named (every query's answers computed here).
 */
async function withModel(config: EmbedConfig): Promise<Record<string, Ranker>> {
  const queries = file.queries.map((q) => q.query);
  const without = new Map(queries.map((q) => [q, { hybrid: ask(q, 'hybrid'), semantic: ask(q, 'semantic') }]));
  rankers['ours (hybrid, the default)'] = (q) => without.get(q)!.hybrid;
  rankers['ours (semantic)'] = (q) => without.get(q)!.semantic;
  const started = performance.now();
  library.useModel(config);
  const timer = setInterval(() => {
    const s = library.meaning?.state;
    if (s) process.stderr.write(`\rembedding ${s.sessionsDone}/${s.sessionsTotal} sessions…`);
  }, 1_000);
  await library.meaning?.settled();
  clearInterval(timer);
  const state = library.meaning?.state;
  if (state?.status !== 'ready') throw new Error(`the model could not embed the corpus: ${state?.error ?? state?.status}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`Model: ${describeEmbed(config)} (${state.model}); ${state.sessionsDone} sessions embedded in ${seconds.toFixed(1)} s\n`);
  const weights = values['embed-weights'].split(',').map(Number);
  const withIt = new Map<string, { hybrid: string[][]; semantic: string[] }>();
  for (const q of queries) {
    await library.prepare(q);
    const hybrid = weights.map((w) => {
      library.meaning!.weight = w;
      return ask(q, 'hybrid');
    });
    withIt.set(q, { hybrid, semantic: ask(q, 'semantic') });
  }
  return {
    ...Object.fromEntries(weights.map((w, i) => [`ours + your model (hybrid, weight ${w})`, (q: string) => withIt.get(q)!.hybrid[i]])),
    'ours + your model (semantic: the model alone)': (q) => withIt.get(q)!.semantic,
  };
}

const f3 = (n: number): string => n.toFixed(3);
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

console.log(`Split: ${values.split} (${chosen.length} queries of ${file.queries.length}; ${sessions.length} sessions)\n`);
console.log('| ranker | ' + [...KINDS, 'all'].map((k) => `${k} nDCG / MRR / R@10`).join(' | ') + ' | none: answered with nothing |');
console.log('|---|' + [...KINDS, 'all', 'none'].map(() => '---').join('|') + '|');
for (const [name, rank] of Object.entries(rankers)) {
  const per = new Map<string, { ndcg: number; mrr: number; recall: number }[]>();
  let empty = 0;
  let none = 0;
  for (const q of chosen) {
    const ids = rank(q.query);
    if (values.show && [q.id, q.kind, 'all'].includes(values.show) && name.startsWith('ours (hybrid'))
      console.error(q.id, q.kind, f3(score(ids, judgments[q.id] ?? {}).ndcg), q.query, ids.map((id) => `${id}:${judgments[q.id]?.[id] ?? 0}`).join(' '));
    if (q.kind === 'none') {
      none++;
      if (!ids.length) empty++;
      continue;
    }
    const s = score(ids, judgments[q.id]);
    for (const key of [q.kind, 'all']) per.set(key, [...(per.get(key) ?? []), s]);
  }
  const cell = (k: string): string => {
    const xs = per.get(k) ?? [];
    return `${f3(mean(xs.map((x) => x.ndcg)))} / ${f3(mean(xs.map((x) => x.mrr)))} / ${f3(mean(xs.map((x) => x.recall)))} (${xs.length})`;
  };
  console.log(`| ${name} | ${[...KINDS, 'all'].map(cell).join(' | ')} | ${empty} of ${none} |`);
}
await library.close();
db.close();
