/**
 * Topics a session is about, from what the person and the agent said (not tool output): the derived tags beside the
 * ones a person adds (`database`, `authentication`, `architecture-decision`, …). A topic is kept when its words come up
 * at least twice (or once in the title); the five most frequent are kept. The vocabulary is fixed, so a topic never
 * carries a word of the transcript, and it is computed once, when the session is read.
 */
import type { Turn } from '../model.js';

const TOPICS: [string, RegExp][] = [
  ['database', /\b(databases?|postgres(?:ql)?|mysql|mariadb|sqlite|mongo(?:db)?|sql (?:query|queries)|indexes|orm)\b/gi],
  ['postgresql', /\b(postgres(?:ql)?|psql|pg_\w+)\b/gi],
  ['migration', /\b(migrations?|migrate|migrating)\b/gi],
  ['authentication', /\b(auth(?:entication|enticate|n)?|log ?in|oauth2?|jwt|sso|saml|password reset|sessions? tokens?)\b/gi],
  ['testing', /\b(tests?|testing|unit tests?|pytest|jest|vitest|mocha|flaky|test suite|coverage)\b/gi],
  ['performance', /\b(performance|slow(?:er|ness)?|latency|optimi[sz](?:e|ed|ation)|profil(?:e|er|ing)|memory leaks?|throughput)\b/gi],
  ['security', /\b(security|vulnerab\w*|xss|csrf|injection|sanitiz\w*|cve-\d+)\b/gi],
  ['deployment', /\b(deploy(?:s|ed|ing|ment)?|releases?|rollouts?|production)\b/gi],
  ['docker', /\b(docker(?:file)?|docker-compose|containeri[sz]\w*)\b/gi],
  ['kubernetes', /\b(kubernetes|k8s|kubectl|helm|pods?)\b/gi],
  ['ci', /\b(ci|github actions|pipelines?|workflows?|build fail\w*)\b/gi],
  ['api', /\b(apis?|endpoints?|rest|graphql|grpc|http requests?)\b/gi],
  ['frontend', /\b(css|react|vue|svelte|components?|layout|button|html|dom)\b/gi],
  ['refactoring', /\b(refactor(?:s|ed|ing)?|clean ?up|restructur\w*)\b/gi],
  ['bug', /\b(bugs?|crash(?:es|ed)?|exceptions?|stack ?traces?|regressions?)\b/gi],
  ['caching', /\b(cach(?:e|es|ed|ing)|redis|memcached|ttl)\b/gi],
  ['logging', /\b(logging|loggers?|log levels?|observability|tracing|metrics)\b/gi],
  ['documentation', /\b(docs|documentation|readme|docstrings?|changelog)\b/gi],
  ['architecture-decision', /\b(decid(?:e|ed|ing)|decisions?|trade-?offs?|architecture|adr|design (?:choice|doc)s?)\b/gi],
  ['git', /\b(git|rebase|merge conflicts?|cherry-pick|worktrees?)\b/gi],
  ['dependencies', /\b(dependenc(?:y|ies)|upgrad(?:e|ed|ing)|npm install|package\.json|lockfile|pip install|requirements\.txt)\b/gi],
  ['concurrency', /\b(race conditions?|deadlocks?|concurren\w*|mutex|threads?|async(?:hronous)?)\b/gi],
];

const MIN_HITS = 2;
const MAX_TOPICS = 5;

/** Every topic's words in one pattern, so the text is read once, not once per topic. */
const ANY_TOPIC = new RegExp(`\\b(?:${TOPICS.map(([, p]) => p.source.replace(/^\\b\(|\)\\b$/g, '')).join('|')})\\b`, 'gi');
/** Per matched phrase (lower case): how many times each topic's own pattern matches it. */
const phraseTopics = new Map<string, [number, number][]>();

function topicsOf(phrase: string): [number, number][] {
  const key = phrase.toLowerCase();
  let found = phraseTopics.get(key);
  if (!found) {
    found = [];
    TOPICS.forEach(([, pattern], i) => {
      const n = key.match(pattern)?.length ?? 0;
      if (n) found!.push([i, n]);
    });
    if (phraseTopics.size < 10_000) phraseTopics.set(key, found);
  }
  return found;
}

export function sessionTopics(topic: string, turns: readonly Turn[]): string[] {
  const hits = new Array<number>(TOPICS.length).fill(0);
  const count = (text: string, weight: number): void => {
    for (const m of text.matchAll(ANY_TOPIC)) for (const [i, n] of topicsOf(m[0])) hits[i] += n * weight;
  };
  count(topic, MIN_HITS);
  for (const t of turns) if (t.kind === 'conversation') count(t.text, 1);
  return TOPICS.map(([tag], i): [string, number] => [tag, hits[i]])
    .filter(([, n]) => n >= MIN_HITS)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_TOPICS)
    .map(([tag]) => tag);
}
