/**
 * `npm run bench:machine [-- --size 10000] [--quiet 60]`: one engine per machine, as a developer's day uses it, on the
 * corpus bench:real writes (bench/.out/real/<size>, made by `npm run bench:real -- --sizes <size>` first). In one run:
 * - warm start: the engine stopped, a CLI search until its complete answer (the engine started and its snapshot read):
 *   the first start of the build (compiling the engine's code), then the median of three from V8's code cache (as every
 *   later start is), beside the engine's own share (from its process's start to its first complete answer, as its log
 *   says), and what the last cost the engine by then (user and system CPU, minor page faults, peak memory: /proc at
 *   its answer);
 * - CLI `search` wall time with the engine running, p50/p95, beside node's own start and beside a search in process;
 * - where the environment names extra CA certificates (NODE_EXTRA_CA_CERTS), node's start, the CLI search and the
 *   engine's own warm start again without them, as on a machine that names none;
 * - three VS Code windows (each links its extension host to the engine, as src/extension/client.ts does: what the link
 *   adds to the host is counted, bench/window-host.ts), two MCP servers and a loop of CLI searches on the data folder:
 *   the sum of their memory against the engine's: by RSS, and as the machine holds it (each process's private memory,
 *   and the pages they share, the Node binary's above all, once), taken right after the loop and again 12 s later
 *   with every client still connected (V8 gives back its young generation once allocation slows);
 * - the floor of a warm start here: node's start and a bare loop listing and stating every file under the home;
 * - the engine's inotify watches, and its CPU over a quiet minute (no client, no query).
 * It uses bench:real's data folder (warm); where there is none yet it builds it cold and reports that build too. Every
 * client reads the tools' default folders under bench:real's home, as a developer's would (no --root).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { inotifyWatches, ROOT } from '../test/helpers.js';
import type { RealCorpus } from './real-corpus.js';
import { fork } from 'node:child_process';
import { SOURCE_IDS } from '../src/core/model.js';
import { mcpLaunchArgs } from '../src/mcp/launch.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, quiet: { type: 'string', default: '60' } } });
const dir = join(ROOT, 'bench', '.out', 'real', values.size!);
if (!existsSync(join(dir, 'corpus.json'))) throw new Error(`no corpus of ${values.size} sessions: run npm run bench:real -- --sizes ${values.size} first`);
const c = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as RealCorpus;
const data = join(dir, 'data'); // bench:real's data folder, warm: its snapshot is the engine's
// the defaults under bench:real's home, as every client of a developer's machine reads them
const rootArgs: string[] = [];
const env = { ...process.env, HOME: c.home };
// every client runs in a small project folder of its own, as a developer's terminal and agents do (the working folder
// is where SpecStory and Aider histories are looked for: not this repository, which holds the corpus itself)
const project = mkdtempSync(join(tmpdir(), 'bench-machine-project-'));
const queries = c.known.map((k) => k.query);
const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const f0 = (n: number): string => n.toFixed(0);
/** How long after the last query the set's memory is taken a second time. */
const SETTLED_MS = 12_000;

/** A CLI command's wall time (ms) and peak resident memory (MB). */
function timed(args: string[], extraEnv: NodeJS.ProcessEnv = {}): { ms: number; peakMb: number; stdout: string } {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    cwd: project,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(-500)}`);
  return { ms, peakMb: Number(r.stderr.trim().split('\n').pop()) / 1024, stdout: r.stdout };
}
const search = (query: string, extraEnv: NodeJS.ProcessEnv = {}) =>
  timed([join(ROOT, 'dist', 'cli.cjs'), 'search', query, '--json', '--limit', '10', ...rootArgs, '--data', data], extraEnv);

const enginePid = (): number | undefined => {
  const file = join(data, 'engine', 'pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8')) : undefined;
};
const engineLog = (): string => {
  const file = join(data, 'engine', 'engine.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};
const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}
/**
 * A process's resident memory split in two (MB): what only it holds (private) and what it shares with other processes
 * (the Node binary's pages above all, mapped by every Node process: RSS counts them again in each).
 */
function residency(pid: number): { rss: number; private: number; shared: number } {
  const kb = (field: string, text: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) / 1024;
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const rss = kb('Rss', text);
  const own = kb('Private_Clean', text) + kb('Private_Dirty', text);
  return { rss, private: own, shared: rss - own };
}
/** A CLI search's largest private memory over its run (sampled every few ms), and what it shared then. */
async function cliResidency(query: string): Promise<{ private: number; shared: number }> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), 'search', query, '--json', '--limit', '10', '--data', data], {
    cwd: project,
    env,
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let most = { private: 0, shared: 0 };
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    try {
      const now = residency(child.pid!);
      if (now.private > most.private) most = now;
    } catch {
      // (it ended between two samples)
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  return most;
}
/** A process's fields of /proc/<pid>/stat after its name: [7] minor faults, [11] user and [12] system CPU in ticks. */
function procStat(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
function cpuTicks(pid: number): number {
  const fields = procStat(pid);
  return Number(fields[11]) + Number(fields[12]);
}
async function stopEngine(): Promise<void> {
  const pid = enginePid();
  if (!pid || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
}
async function mcpClient(): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: mcpLaunchArgs(join(ROOT, 'dist', 'mcp.js'), [...rootArgs, '--data', data]),
    env: env as Record<string, string>,
    cwd: project,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-machine', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

/**
 * A window, as its extension host links to the engine (bench/window-host.ts: a process of its own here, so that what the
 * link holds can be measured); resolves once it showed its tree. Its cost is what the link adds to the host.
 */
async function windowClient(): Promise<{ cost: () => Promise<number>; search: (q: string) => Promise<unknown>; close: () => void }> {
  const sources = SOURCE_IDS.map((id) => ({ id, enabled: true, folders: [] }));
  const settings = { sources, workspaceFolders: [], dataDir: data, archive: true, workspaceSymbols: false, exclude: [], maxFileBytes: 512 * 1024 * 1024 };
  const child = fork(join(ROOT, 'bench', 'window-host.ts'), [JSON.stringify(settings), join(ROOT, 'dist', 'engine.cjs')], {
    env,
    cwd: project,
    execArgv: ['--expose-gc', '--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let exited: Error | undefined;
  const waiting = new Set<(err: Error) => void>();
  child.once('exit', (code) => {
    exited = new Error(`a window's host exited (${code})`);
    for (const reject of waiting) reject(exited);
  });
  const next = (): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (exited) return reject(exited);
      waiting.add(reject);
      child.once('message', (m: { error?: string; value?: unknown }) => {
        waiting.delete(reject);
        if (m.error) reject(new Error(m.error));
        else resolve(m.value);
      });
    });
  let queue: Promise<unknown> = next();
  const ask = (message: object): Promise<unknown> =>
    (queue = queue.then(() => {
      const answered = next();
      child.send(message);
      return answered;
    }));
  await ask({ tree: true });
  return { cost: () => ask({ cost: true }) as Promise<number>, search: (query) => ask({ search: query }), close: () => child.disconnect() };
}

await stopEngine();
let cold = '—';
if (!existsSync(join(data, 'index'))) {
  const first = search(queries[0]);
  cold = `${(first.ms / 1000).toFixed(1)} s`;
  console.error(`${values.size}: cold build to a complete answer through the CLI: ${cold}`);
}
// warm start: the engine stopped, then the first CLI command starts it and answers over every session. The first start
// of a build compiles the engine's code (and writes V8's code cache as it stops); later ones take it from the cache, as
// every start but an install's first does: the median of three of those
// at every start, beside the command's wall time, the engine's own: from its process's start to its first complete
// answer, as its log says (the command's share is node's start and its bundle before it starts the engine)
const engineOwn = (): number => {
  const said = [...engineLog().matchAll(/first complete answer (\d+) ms after the engine's process started/g)].pop();
  if (!said) throw new Error("the engine's log does not say when it first answered");
  return Number(said[1]);
};
await stopEngine();
const firstWarm = search(queries[0]);
const laterWarm: number[] = [];
const laterOwn: number[] = [];
for (let i = 0; i < 3; i++) {
  await stopEngine();
  laterWarm.push(search(queries[0]).ms);
  laterOwn.push(engineOwn());
}
const warm = { ms: pct(laterWarm, 0.5), own: pct(laterOwn, 0.5) };
const engine = enginePid()!;
// what the engine's start cost it, read at its first answer: where a slow start's time went (CPU, and memory first touched)
const started = procStat(engine);
const startCost =
  `user ${(Number(started[11]) / 100).toFixed(2)} s, system ${(Number(started[12]) / 100).toFixed(2)} s, ` +
  `${Number(started[7]).toLocaleString('en-US')} minor page faults, peak ${f0(status(engine, 'VmHWM'))} MB`;
console.error(
  `${values.size}: warm start of the engine to a complete answer (CLI command included): the first of this build ${f0(firstWarm.ms)} ms; ` +
    `from the code cache ${laterWarm.map(f0).join(', ')} ms (median ${f0(warm.ms)}); the engine's own, from its start: ${laterOwn.join(', ')} ms ` +
    `(median ${f0(warm.own)}); the engine, the last: ${startCost}`,
);

// the floor of a warm start on this machine: node's own start, then every file under the tools' folders listed and
// stated in a bare loop (a complete answer must know that no transcript changed since the snapshot), nothing else
const BARE_WALK =
  "const fs=require('fs'),p=require('path');let n=0;const w=(d)=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const f=p.join(d,e.name);" +
  'if(e.isDirectory())w(f);else if(e.isFile()){fs.statSync(f);n++}}};w(process.argv[1]);console.log(n)';
const bareWalks = Array.from({ length: 3 }, () => timed(['-e', BARE_WALK, c.home]));
const bareWalk = {
  ms: pct(
    bareWalks.map((w) => w.ms),
    0.5,
  ),
  files: Number(bareWalks[0].stdout.trim()),
};
console.error(`${values.size}: node's start and a bare walk stating the ${bareWalk.files.toLocaleString('en-US')} files under the home: ${f0(bareWalk.ms)} ms`);

const nodeStart = Array.from({ length: 10 }, () => timed(['-e', '0']).ms);
const cliMs = queries.slice(0, 30).map((q) => search(q).ms);
const inProcess = queries.slice(0, 3).map((q) => search(q, { SESSION_SEARCH_ENGINE: 'off' }));
console.error(
  `${values.size}: CLI search with the engine p50 ${f0(pct(cliMs, 0.5))} ms (node -e 0: ${f0(pct(nodeStart, 0.5))} ms); in process ${f0(
    pct(
      inProcess.map((r) => r.ms),
      0.5,
    ),
  )} ms`,
);

// An environment that names extra CA certificates (NODE_EXTRA_CA_CERTS, as some machines set for every tool) has every
// node process read and parse that bundle as it starts, before any of its code runs, though neither the command nor the
// engine opens a TLS connection to search: node's start and the CLI search measured again without it, as on a machine
// that names none (and the engine's warm start, at the end, so that nothing between is measured on a fresh engine)
const plainEnv = process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: undefined } : undefined;
const plainStart = plainEnv ? Array.from({ length: 10 }, () => timed(['-e', '0'], plainEnv).ms) : [];
const plainCli = plainEnv ? queries.slice(0, 30).map((q) => search(q, plainEnv).ms) : [];

// three windows, two MCP servers and a loop of CLI searches at once, on the one engine
const windows = [await windowClient(), await windowClient(), await windowClient()];
const servers = [await mcpClient(), await mcpClient()];
let cliPeak = 0;
for (let round = 0; round < 10; round++) {
  await Promise.all([
    ...windows.map((w) => w.search(queries[round + 1])),
    ...servers.map(({ client }) => client.callTool({ name: 'search_session', arguments: { query: queries[round + 1], limit: 10 } })),
  ]);
  cliPeak = Math.max(cliPeak, search(queries[round + 2]).peakMb);
}
if (enginePid() !== engine) throw new Error('the clients did not share the engine');
const engineRss = status(engine, 'VmRSS');
const windowsRss = await Promise.all(windows.map((w) => w.cost()));
const serversRss = servers.map(({ pid }) => status(pid, 'VmRSS'));
const sum = engineRss + [...windowsRss, ...serversRss].reduce((a, b) => a + b, 0) + cliPeak;
// the same set as the machine holds it: each process's private memory, and what they share (the Node binary) once;
// against the engine alone (its RSS: private and shared)
const cliSplit = await cliResidency(queries[12]);
/** The set's memory as the machine holds it now: the parts, their sum, and the engine's RSS it is compared with. */
async function heldNow(): Promise<{ parts: string; held: number; engineRss: number }> {
  const engineSplit = residency(engine);
  const windowsNow = await Promise.all(windows.map((w) => w.cost()));
  const serversSplit = servers.map(({ pid }) => residency(pid));
  const sharedOnce = Math.max(engineSplit.shared, cliSplit.shared, ...serversSplit.map((m) => m.shared));
  const held = engineSplit.private + windowsNow.reduce((a, b) => a + b, 0) + [...serversSplit, cliSplit].reduce((a, m) => a + m.private, 0) + sharedOnce;
  const parts = [engineSplit.private, ...windowsNow, ...serversSplit.map((m) => m.private), cliSplit.private].map(f0).join(' + ');
  return { parts: `${parts} + ${f0(sharedOnce)} shared`, held, engineRss: engineSplit.rss };
}
const busy = await heldNow();
// the same a while after the last query, the clients still connected: V8 gives back its young generation once the
// allocation rate falls (its memory reducer), in the engine and in the clients alike
await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
const settled = await heldNow();
const watched = inotifyWatches(engine);
for (const w of windows) w.close();
for (const { client } of servers) await client.close();

// a quiet minute: no client, no query
await new Promise((resolve) => setTimeout(resolve, 3_000));
const quietMs = Number(values.quiet) * 1000;
const before = cpuTicks(engine);
const logged = engineLog().length;
await new Promise((resolve) => setTimeout(resolve, quietMs));
const idleCpu = ((cpuTicks(engine) - before) / 100 / (quietMs / 1000)) * 100;
// what the engine did meanwhile, beside its figure (a snapshot written, a model learned: the minute was not idle)
const didMeanwhile = engineLog().slice(logged).trim();
if (didMeanwhile) console.error(`${values.size}: the engine logged during the quiet minute:\n${didMeanwhile}`);
const peak = status(engine, 'VmHWM');
await stopEngine();
let withoutExtraCa = '';
if (plainEnv) {
  const plainOwn: number[] = [];
  for (let i = 0; i < 3; i++) {
    search(queries[0], plainEnv);
    plainOwn.push(engineOwn());
    await stopEngine();
  }
  withoutExtraCa =
    `Without NODE_EXTRA_CA_CERTS (this environment names ${process.env.NODE_EXTRA_CA_CERTS}): node -e 0 p50 ${f0(pct(plainStart, 0.5))} ms ` +
    `(${f0(pct(nodeStart, 0.5))} with it); CLI search with the engine p50 / p95 ${f0(pct(plainCli, 0.5))} / ${f0(pct(plainCli, 0.95))} ms; ` +
    `the engine's own warm start ${plainOwn.join(', ')} ms (median ${f0(pct(plainOwn, 0.5))}).`;
  console.error(`${values.size}: ${withoutExtraCa}`);
}

const held = (h: { parts: string; held: number }): string => `${h.parts} = ${f0(h.held)} (${(h.held / engineRss).toFixed(2)}×)`;
console.log(
  "| sessions | cold build (CLI, to complete) | warm start to complete answer ms: first of a build / from the code cache (median of 3) / the engine's own (its process start to its answer, median of 3) | CLI search p50 / p95 ms (node start p50) | CLI search in process p50 ms | engine + 3 windows (added to their hosts) + 2 MCP + CLI RSS MB (÷ engine) | the same, private MB + shared once (÷ engine RSS) | the same, " +
    SETTLED_MS / 1000 +
    ' s after the last query | engine watches | idle CPU % of a core | engine peak / serving RSS MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
console.log(
  `| ${values.size} | ${cold} | ${f0(firstWarm.ms)} / ${f0(warm.ms)} / ${f0(warm.own)} | ${f0(pct(cliMs, 0.5))} / ${f0(pct(cliMs, 0.95))} (${f0(pct(nodeStart, 0.5))}) | ${f0(
    pct(
      inProcess.map((r) => r.ms),
      0.5,
    ),
  )} | ${f0(engineRss)} + ${windowsRss.map(f0).join(' + ')} + ${serversRss.map(f0).join(' + ')} + ${f0(cliPeak)} = ${f0(sum)} (${(sum / engineRss).toFixed(2)}×) | ${held(busy)} | ${held(settled)} | ${watched} | ${idleCpu.toFixed(2)} | ${f0(peak)} / ${f0(engineRss)} |`,
);
if (withoutExtraCa) console.log(`\n${withoutExtraCa}`);
console.log(
  `\nWarm start: the engine at its first answer: ${startCost}. Its floor here: node's start and a bare walk stating the ${bareWalk.files.toLocaleString('en-US')} files under the home, ${f0(bareWalk.ms)} ms (median of 3).`,
);
