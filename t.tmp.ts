import { loadCorpus } from './bench/relevance/corpus.ts';
const library = await loadCorpus();
const q = 'how does the repo map get cached here?';
for (const mode of ['lexical', 'hybrid'] as const) console.log(mode, library.search(q, { limit: 6, mode }).results.map((r) => `${r.id.replace('aider:aider-repo/chat-history.md', '')}:${r.relevanceScore}:${r.matchCount}`).join(' '));
console.log(library.index.docFrequency('repomap'), library.index.docFrequency('cached'));
await library.close();
