/**
 * A corpus shaped like real agent histories, for `npm run bench:real`: sessions recombined from the real turns in
 * ../shared/corpus (prompts, replies, thinking, tool calls and outputs of Claude Code, Codex and CodeArchitect), lightly
 * varied (numbers, paths), with the real size distribution (log-normal: Claude Code median ~150 KB, Codex ~280 KB,
 * p90 ~1.2 MB, a tail to 16 MB, most bytes tool output), over 12 projects with worktrees and branches and 18 months,
 * written where each tool keeps them under a HOME of its own. Deterministic for a given size: same seed, same bytes.
 * Some sessions carry a planted known item (a prompt whose words are the query that should find it first).
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCore } from '../src/core/library/open.js';
import { silentLogger } from '../src/core/log.js';
import { CORPUS } from '../test/helpers.js';
import { mulberry32 as rng } from './corpus.js';

export interface RealCorpus {
  home: string;
  roots: { source: string; path: string }[];
  sessions: number;
  bytes: number;
  /** Planted known items: the query, and the id of the session it should find. */
  known: { query: string; id: string }[];
  /** Queries of 1 to 6 words drawn from the words people use in prompts. */
  queries: string[][];
}

interface Pool {
  prompts: string[];
  replies: string[];
  thinking: string[];
  calls: { tool: string; text: string }[];
  outputs: string[];
  words: string[];
}

const STOP = new Set(
  'that this with from have your what will when there their they them then than into about would could should which were been also just like only some more other these those here where does make need want using used file files code line lines tool true false null none'.split(
    ' ',
  ),
);

/** The real turns of the sample transcripts, sorted into what a generated session is made of. */
async function realTurns(): Promise<Pool> {
  const library = openCore({
    roots: [
      { source: 'claude-code', path: join(CORPUS, 'claude-code') },
      { source: 'codex', path: join(CORPUS, 'codex') },
      { source: 'codearchitect', path: join(CORPUS, 'codearchitect', 'sessions') },
    ],
    logger: silentLogger,
    env: {},
  });
  await library.load();
  const pool: Pool = { prompts: [], replies: [], thinking: [], calls: [], outputs: [], words: [] };
  const counts = new Map<string, number>();
  for (const s of [...library.sessions.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    for (const t of library.turns.all(s)) {
      if (!t.text.trim()) continue;
      if (t.kind === 'conversation' && t.role === 'user') {
        pool.prompts.push(t.text.slice(0, 8000));
        for (const w of t.text.toLowerCase().match(/\b[a-z]{4,14}\b/g) ?? []) if (!STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
      } else if (t.kind === 'conversation') pool.replies.push(t.text.slice(0, 16_000));
      else if (t.kind === 'thinking') pool.thinking.push(t.text.slice(0, 8000));
      else if (t.role === 'tool' || t.kind === 'file') pool.outputs.push(t.text.slice(0, 256_000));
      else pool.calls.push({ tool: t.tool ?? 'Bash', text: t.text.slice(0, 4000) });
    }
  }
  await library.close();
  // Words people write in prompts, used 2 to 200 times: what queries are made of.
  pool.words = [...counts]
    .filter(([, n]) => n >= 2 && n <= 200)
    .map(([w]) => w)
    .sort();
  return pool;
}

const pick = <T>(r: () => number, items: T[]): T => items[Math.floor(r() * items.length)];

/** A made-up project codename (`zorvaketh`): a word no sample transcript holds, as internal names are. */
function codename(r: () => number): string {
  const syllables = ['zor', 'vak', 'eth', 'plim', 'sar', 'quon', 'dru', 'fel', 'mox', 'tir', 'bal', 'gre', 'nys', 'kov', 'ula', 'wen'];
  return Array.from({ length: 3 }, () => pick(r, syllables)).join('');
}

/** Standard normal by Box-Muller. */
function normal(r: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
}

/** A session size in bytes: log-normal around `median`, p90 about 6× the median, at most 16 MB. */
function size(r: () => number, median: number): number {
  return Math.min(16 * 1024 * 1024, Math.max(4096, Math.round(median * Math.exp(1.45 * normal(r)))));
}

/** Light variation: numbers and hex ids change, so repeated outputs are not byte-identical across sessions. */
function varySamples(text: string, r: () => number, project: string): string {
  return text.replace(/\b\d{2,}\b/g, () => String(Math.floor(r() * 100_000))).replace(/\/(?:home|Users|tmp|workspace|work)\/[\w.-]+/g, `/work/${project}`);
}

const HEX = '0123456789abcdef';
/** `length` random characters of `alphabet`. */
const randomOf = (r: () => number, alphabet: string, length: number): string =>
  Array.from({ length }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');

/**
 * Variation as real tool output grows a history's vocabulary: every hash, id and run of digits is new (hex runs of 7 or
 * more and digit runs of 2 or more get random ones of the same length: commit and object hashes, timestamps, ports,
 * line numbers, sizes), and the identifiers a project names (camelCase, PascalCase and snake_case words) carry its own
 * prefix, as another project's code names its own. The words of prose stay as they are.
 */
function varyGrowing(text: string, r: () => number, project: string): string {
  const tag = project.replace(/\W/g, '');
  return text
    .replace(/\/(?:home|Users|tmp|workspace|work)\/[\w.-]+/g, `/work/${project}`)
    .replace(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,}\b/g, (m) => randomOf(r, HEX, m.length))
    .replace(/\d{2,}/g, (m) => randomOf(r, '0123456789', Math.min(m.length, 16)))
    .replace(/\b(?:[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|[a-z]+(?:_[a-z0-9]+)+)\b/g, (m) =>
      m.includes('_') ? `${tag}_${m}` : `${tag}${m[0].toUpperCase()}${m.slice(1)}`,
    );
}

/** How a corpus's words vary from session to session: as in the samples, or growing with the history as real ones do. */
export type Vocabulary = 'samples' | 'growing';

const PROJECTS = ['shop', 'ledger', 'atlas', 'pipeline', 'console', 'notify', 'search', 'billing', 'infra', 'mobile', 'docs-site', 'auth'];
const BRANCHES = ['main', 'main', 'main', 'feature/checkout', 'fix/flaky-tests', 'refactor/db', 'release/2.4'];

interface Planned {
  id: string;
  source: 'claude-code' | 'codex' | 'codearchitect';
  uuid: string;
  project: string;
  cwd: string;
  branch: string;
  start: Date;
  turns: { role: 'user' | 'assistant' | 'thinking' | 'call' | 'output'; text: string; tool?: string }[];
}

function uuidOf(r: () => number): string {
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
}

/** One session's turns: exchanges of prompt, thinking, reply and tool calls with their output until the size is reached. */
function plan(i: number, r: () => number, pool: Pool, planted?: string, projects = PROJECTS, vocabulary: Vocabulary = 'samples'): Planned {
  const vary = vocabulary === 'growing' ? varyGrowing : varySamples;
  const roll = r();
  const source = roll < 0.7 ? 'claude-code' : roll < 0.9 ? 'codex' : 'codearchitect';
  const target = size(r, source === 'claude-code' ? 150_000 : source === 'codex' ? 280_000 : 20_000);
  const project = projects[Math.floor(r() * projects.length)];
  const branch = pick(r, BRANCHES);
  const worktree = branch !== 'main' && r() < 0.5;
  const cwd = worktree ? `/work/${project}-wt-${branch.replace(/\W/g, '-')}` : `/work/${project}`;
  const start = new Date(Date.UTC(2025, 4, 1) + Math.floor(r() * 548 * 86_400_000));
  const turns: Planned['turns'] = [];
  let bytes = 0;
  const add = (t: Planned['turns'][number]): void => {
    turns.push(t);
    bytes += JSON.stringify(t.text).length + 200;
  };
  if (planted) add({ role: 'user', text: planted });
  while (bytes < target) {
    add({ role: 'user', text: vary(pick(r, pool.prompts), r, project) });
    if (source !== 'codearchitect' && r() < 0.3) add({ role: 'thinking', text: vary(pick(r, pool.thinking), r, project) });
    const tools = source === 'codearchitect' ? 0 : Math.floor(r() * 5);
    for (let k = 0; k < tools && bytes < target; k++) {
      const call = pick(r, pool.calls);
      add({ role: 'call', tool: call.tool, text: vary(call.text, r, project) });
      add({ role: 'output', text: vary(pick(r, pool.outputs), r, project) });
    }
    add({ role: 'assistant', text: vary(pick(r, pool.replies), r, project) });
  }
  const uuid = uuidOf(r);
  return { id: `${source}:${uuid}`, source, uuid, project, cwd, branch, start, turns };
}

const at = (p: Planned, n: number): string => new Date(p.start.getTime() + n * 20_000).toISOString();

function claudeFile(p: Planned): string {
  const lines: string[] = [];
  let parent: string | null = null;
  p.turns.forEach((t, n) => {
    const uuid = `${p.uuid.slice(0, 24)}${String(n).padStart(12, '0')}`;
    const base = { parentUuid: parent, isSidechain: false, cwd: p.cwd, gitBranch: p.branch, sessionId: p.uuid, uuid, timestamp: at(p, n) };
    parent = uuid;
    if (t.role === 'user') lines.push(JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: t.text } }));
    else if (t.role === 'output')
      lines.push(
        JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n - 1}`, content: t.text }] } }),
      );
    else {
      const block =
        t.role === 'thinking'
          ? { type: 'thinking', thinking: t.text }
          : t.role === 'call'
            ? { type: 'tool_use', id: `t${n}`, name: t.tool, input: { command: t.text } }
            : { type: 'text', text: t.text };
      lines.push(JSON.stringify({ ...base, type: 'assistant', message: { id: `m${n}`, role: 'assistant', content: [block] } }));
    }
  });
  return `${lines.join('\n')}\n`;
}

function codexFile(p: Planned): string {
  const lines = [
    JSON.stringify({ timestamp: at(p, 0), type: 'session_meta', payload: { id: p.uuid, timestamp: at(p, 0), cwd: p.cwd, git: { branch: p.branch } } }),
  ];
  p.turns.forEach((t, n) => {
    const item =
      t.role === 'user' || t.role === 'assistant'
        ? { type: 'message', role: t.role, content: [{ type: t.role === 'user' ? 'input_text' : 'output_text', text: t.text }] }
        : t.role === 'thinking'
          ? { type: 'reasoning', summary: [{ type: 'summary_text', text: t.text }] }
          : t.role === 'call'
            ? { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', t.text] }), call_id: `c${n}` }
            : { type: 'function_call_output', call_id: `c${n - 1}`, output: t.text };
    lines.push(JSON.stringify({ timestamp: at(p, n), type: 'response_item', payload: item }));
  });
  return `${lines.join('\n')}\n`;
}

function codeArchitectFile(p: Planned): { full: string; summary: string; topic: string } {
  const messages = p.turns.filter((t) => t.role === 'user' || t.role === 'assistant').map((t) => ({ role: t.role, content: t.text }));
  const topic = `${p.project}-session-${p.uuid.slice(0, 8)}`;
  const full = `# ${topic} - Full Context\n\n**Date:** ${at(p, 0)}\n**Message Count:** ${messages.length}\n\n---\n\n## Full Conversation (JSON)\n\n\`\`\`json\n${JSON.stringify(messages, null, 2)}\n\`\`\`\n\n---\n`;
  return { full, summary: `# ${topic}\n\n**Date:** ${at(p, 0)}\n\n## Short Summary\n\nWork on ${p.project}.\n`, topic };
}

/**
 * What a person types to find a planted session again: 1 to 6 words (in turn) mixing one or both of its codenames with
 * everyday words of its prompt, always one word its decoy lacks (the second codename or the second everyday word).
 */
function rememberedQuery([c1, c2, w1, w2]: string[], n: number): string {
  // (the first of three words: a query the semantic leg ranks, which the benchmark waits on to say the model is ready)
  const shapes = [[c1, c2, w1], [c1, w1, w2, 'service'], [c2, w1, w2, 'service', 'client'], [c1, c2, w1, w2, 'service', 'release'], [c2], [c1, w2]];
  return shapes[n % shapes.length].join(' ');
}

/** Writes the corpus (when `write`), and returns where it is and what to ask of it. */
export async function realCorpus(
  dir: string,
  sessions: number,
  write = true,
  options: { projects?: number; vocabulary?: Vocabulary } = {},
): Promise<RealCorpus> {
  const projects = PROJECTS.slice(0, options.projects ?? PROJECTS.length);
  const pool = await realTurns();
  const r = rng(sessions * 7919 + 17);
  const home = join(dir, 'home');
  const roots = [
    { source: 'claude-code', path: join(home, '.claude', 'projects') },
    { source: 'codex', path: join(home, '.codex', 'sessions') },
    { source: 'codearchitect', path: join(home, '.codearchitect', 'sessions') },
  ];
  const known: RealCorpus['known'] = [];
  let bytes = 0;
  const every = Math.max(10, Math.floor(sessions / 100));
  let decoy: string | undefined;
  let planting = 0;
  for (let i = 0; i < sessions; i++) {
    let planted: string | undefined;
    let words: string[] = [];
    if (i % every === every - 1) {
      // What a person remembers of a session: a codename or two only it mentions, and a couple of everyday words.
      words = [codename(r), codename(r), pick(r, pool.words), pick(r, pool.words)];
      planted = `Remember this one: the ${words[0]} service and the ${words[1]} client need to ${words[2]} the ${words[3]} before the release.`;
      // and a decoy, the next session: the same first codename, everyday word and phrasing, without the rest
      decoy = `Remember this one: the ${words[0]} service and the ${codename(r)} client need to ${words[2]} the ${pick(r, pool.words)} before the release.`;
    } else if (decoy) {
      planted = decoy;
      decoy = undefined;
    }
    const p = plan(i, r, pool, planted, projects, options.vocabulary);
    if (words.length) known.push({ query: rememberedQuery(words, planting++), id: p.source === 'codearchitect' ? '' : p.id });
    if (!write) continue;
    const last = new Date(p.start.getTime() + p.turns.length * 20_000);
    let file: string;
    let body: string;
    if (p.source === 'claude-code') {
      const folder = join(roots[0].path, p.cwd.replace(/[/.]/g, '-'));
      mkdirSync(folder, { recursive: true });
      file = join(folder, `${p.uuid}.jsonl`);
      body = claudeFile(p);
    } else if (p.source === 'codex') {
      const day = p.start.toISOString().slice(0, 10).split('-');
      const folder = join(roots[1].path, ...day);
      mkdirSync(folder, { recursive: true });
      file = join(folder, `rollout-${p.start.toISOString().slice(0, 19).replace(/:/g, '-')}-${p.uuid}.jsonl`);
      body = codexFile(p);
    } else {
      const ca = codeArchitectFile(p);
      const folder = join(roots[2].path, p.start.toISOString().slice(0, 10), ca.topic);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'summary.md'), ca.summary);
      file = join(folder, 'full.md');
      body = ca.full;
    }
    writeFileSync(file, body);
    utimesSync(file, last, last);
    bytes += Buffer.byteLength(body);
  }
  const qr = rng(4242);
  const queries = Array.from({ length: 6 }, (_, k) => Array.from({ length: 60 }, () => Array.from({ length: k + 1 }, () => pick(qr, pool.words)).join(' ')));
  return { home, roots, sessions, bytes, known: known.filter((k) => k.id), queries };
}
