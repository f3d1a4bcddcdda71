/** Command-line parsing for `session-search`: options shared by every command, and the roots they select. */
import { errorMessage } from '../core/errors.js';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXPORT_FORMATS, SEARCH_MODES, SOURCE_IDS, type ExportFormat, type SearchMode, type SourceId } from '../core/model.js';
import { defaultRoots, type SourceRoot } from '../core/ingest/sources/default-roots.js';
import { COMMANDS, didYouMean } from './help.js';
import { checkEmbedConfig, embedConfigFromEnv, isEmbedConfigured, type EmbedConfig } from '../core/embed/config.js';

export class UsageError extends Error {}

export const USAGE = `Usage: session-search <command> [options]

Commands:
  search <words...>        Search every session; "quoted phrases" must appear, -word excludes
  get <name-or-id>         Show one session (id, tool id, CodeArchitect folder name, or name-summary.md / name-full.md)
  export <name-or-id>      The session as Markdown (default), a self-contained HTML page or JSON: --format md|html|json,
                           --out FILE (default: standard output), --redact-home (your home folder and user name in
                           paths become ~ and <user>)
  resume <name-or-id>      Print the command that reopens the session in its tool (claude, codex, gemini,
                           opencode); with --run, run it in the session's project folder
  list                     List sessions, newest first
  files <path>             The sessions whose agent read, wrote, edited, deleted or ran a command on a file,
                           newest first, with the request behind each; --lines 40-80: which session wrote those
                           lines as they are now (or that no agent edit matches them)
  sources                  Every source: the folders it is read from and how many sessions each holds
  import <file-or-folder>  Import an export: ChatGPT's or Claude.ai's export (its zip or conversations.json), a
                           Google Takeout zip (Gemini Apps), a Copilot Chat export or a SpecStory .md; read from
                           then on (never extracted or written) and archived like any other session
  mcp                      Run the MCP server on stdio (for Claude Code, VS Code and other MCP clients)
  serve                    Run the engine of the data folder: one warm index every window, agent and command
                           shares (started by the first that needs it, gone after 15 idle minutes;
                           SESSION_SEARCH_ENGINE=off answers in each process instead)
  engine [status|start|stop]
                           The engine of the data folder: whether it runs, its sessions, memory and clients, and
                           when it stops for idleness (status; exit status 3 when none runs; never starts one);
                           start it and wait until it answers; or stop it (its snapshot written)
  archive [size|purge]     Report the size of the masked archive in the data folder, or delete it
  learn                    Learn the model that ranks by meaning now (a search starts this in the background
                           when the data folder has none; until it is written, answers rank by words)
  mcp-config               Print the \`claude mcp add\` line and a .mcp.json entry for this install
  tag <name-or-id> <tag>…  Tag a session (kept in the data folder, never in the transcript); find it with --tag
  untag <name-or-id> <tag>…  Remove tags you gave a session
  tags                     The tags you gave, with how many sessions carry each
  team init|push|share|unshare|shares|status
                           The team archive on PostgreSQL (--db URL or SESSION_SEARCH_TEAM_DB): init (an admin,
                           once), push --project P (repeatable; --watch keeps pushing), share <project> <role>,
                           unshare <project> <role>, shares, status
  preferences [set <category> <value…> | clear <category>]
                           How you like to work, learned from your prompts and sessions (with --project, one
                           project's); set or clear a value by hand

Options:
  --json                   Print the response object as JSON
  --toon                   Print the response object as TOON
  --limit N                At most N results (search default 10, list default 50 in human output)
  --date YYYY-MM-DD        Only sessions active on that day
  --from YYYY-MM-DD        Only sessions active on or after that day
  --to YYYY-MM-DD          Only sessions active on or before that day
  --source ID              Only one source: ${SOURCE_IDS.join(', ')}
  --project PATH           Only sessions whose workspace is PATH or inside it
  --exact                  With --project: only that folder (and inside it), not the repository's other worktrees
  --repo                   With --project: the whole repository, every git worktree of it (the default)
  --branch NAME            Only sessions recorded on this git branch
  --lines N-M              files: the lines (1-based, "42" or "40-80") to find the writing session of
  --tag TAG                Only sessions carrying TAG (repeatable: any of them, more of them first): one you
                           gave, or a topic (database, testing, …), the source, the project folder name or the branch
  --all-tags               With --tag: only sessions carrying every one of them
  --role ROLE              search: only matches in turns of user, assistant, tool or system
  --mode MODE              search: hybrid (default: the words, what each session's user asked and the meaning,
                           fused), lexical (the words as typed and their forms) or semantic (by meaning only;
                           once the model is learned)
  --root SOURCE=PATH       Read this folder for SOURCE (repeatable); when given, only these roots are read
  --no-default-roots       Read only the folders given with --root (none without one), not the tools' defaults
  --data DIR               The product's own data folder (default ~/.session-search, or SESSION_SEARCH_HOME)
  --no-archive             Do not keep or read the masked archive of sessions in the data folder
  --exclude GLOB           Never read transcript files matching GLOB (repeatable), as sessionSearch.exclude
  --max-file-mb N          Skip transcript files larger than N MB (default 512), as sessionSearch.maxFileSizeMB
  --partial                Answer at once from what is indexed so far (a first run indexes newest first) instead
                           of waiting for the whole history; the answer says how far indexing had got
  --team                   search, get: also the team archive (sessions others shared with you)
  --db URL                 The team database (postgres://role@host/db), else SESSION_SEARCH_TEAM_DB
  --machine NAME           team push: this machine's name in the team archive (default: SESSION_SEARCH_MACHINE or
                           the host name)
  --watch, --interval S    team push: push again every S seconds (default 60) until stopped
  --embed-endpoint URL     Rank by meaning with your own embedding model too: an endpoint on this machine that
                           speaks Ollama's /api/embed or OpenAI's /v1/embeddings (else SESSION_SEARCH_EMBED_ENDPOINT)
  --embed-model NAME       The endpoint's model, e.g. nomic-embed-text (else SESSION_SEARCH_EMBED_MODEL)
  --embed-folder DIR       Or an ONNX sentence encoder on disk (model.onnx + tokenizer.json; SESSION_SEARCH_EMBED_FOLDER)
  --embed-weight W         How much the model counts beside the words' 1 (default 0.5; SESSION_SEARCH_EMBED_WEIGHT)
  --verbose                Log skipped files and lines to stderr
  -h, --help               Show this help
  -V, --version            Show the version and build
`;

export interface CliOptions {
  command: string;
  positionals: string[];
  json: boolean;
  toon: boolean;
  limit?: number;
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  source?: SourceId;
  project?: string;
  role?: string;
  branch?: string;
  /** files --lines: `42` or `40-80`. */
  lines?: string;
  tags?: string[];
  /** --all-tags: every --tag, not any of them. */
  allTags?: boolean;
  projectScope?: 'repo' | 'exact';
  mode?: SearchMode;
  run?: boolean;
  format?: ExportFormat;
  out?: string;
  redactHome?: boolean;
  roots: SourceRoot[];
  /** Whether --root was given (otherwise `roots` are the defaults). */
  rootsGiven: boolean;
  dataDir: string;
  archive: boolean;
  /** --exclude: glob patterns of transcript files never to read. */
  exclude: string[];
  /** --max-file-mb, in bytes: larger transcript files are skipped (undefined: the library's default). */
  maxFileBytes?: number;
  verbose: boolean;
  /** Answer from what is indexed so far instead of waiting for the whole load. */
  partial: boolean;
  help: boolean;
  /** `--version`: print the version and build, nothing else. */
  version: boolean;
  /** Search the team archive too (needs --db or SESSION_SEARCH_TEAM_DB). */
  team: boolean;
  /** Every --project given, as typed (team push takes folder names as well as paths). */
  projects: string[];
  db?: string;
  machine?: string;
  watch: boolean;
  /** Seconds between pushes with --watch. */
  interval?: number;
  /** The user's own embedding model (--embed-*, else SESSION_SEARCH_EMBED_*). */
  embed?: EmbedConfig;
}

/** The embedding model the flags name, else the environment's; checked (a remote host needs SESSION_SEARCH_EMBED_ALLOW_REMOTE=1). */
function embedConfig(
  values: { 'embed-endpoint'?: string; 'embed-model'?: string; 'embed-folder'?: string; 'embed-weight'?: string },
  env: NodeJS.ProcessEnv,
): EmbedConfig | undefined {
  const fromEnv = embedConfigFromEnv(env);
  const given: EmbedConfig = {
    endpoint: values['embed-endpoint'],
    model: values['embed-model'],
    folder: values['embed-folder'] === undefined ? undefined : resolve(values['embed-folder']),
  };
  const config = isEmbedConfigured(given)
    ? { model: fromEnv?.model, ...given, allowRemote: fromEnv?.allowRemote ?? env.SESSION_SEARCH_EMBED_ALLOW_REMOTE === '1' }
    : fromEnv;
  if (!config) return undefined;
  if (values['embed-weight'] !== undefined) config.weight = Number(values['embed-weight']);
  try {
    return checkEmbedConfig(config);
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}

function maxFileBytes(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1) throw new UsageError(`--max-file-mb expects a number of megabytes (at least 1), got "${value}".`);
  return n * 1024 * 1024;
}

function interval(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1) throw new UsageError(`--interval expects a number of seconds (at least 1), got "${value}".`);
  return n;
}

export function parseRoot(spec: string): SourceRoot {
  const eq = spec.indexOf('=');
  const source = spec.slice(0, eq);
  if (eq < 1 || !spec.slice(eq + 1)) throw new UsageError(`--root expects SOURCE=PATH, got "${spec}".`);
  if (!(SOURCE_IDS as readonly string[]).includes(source)) throw new UsageError(`Unknown source "${source}" in --root; known: ${SOURCE_IDS.join(', ')}.`);
  return { source: source as SourceId, path: resolve(spec.slice(eq + 1)) };
}

/** What a long-running command (the MCP server, the engine) reads and how, as the options give it. */
export function readingOptions(o: CliOptions): Pick<CliOptions, 'roots' | 'dataDir' | 'archive' | 'exclude' | 'maxFileBytes' | 'verbose'> {
  return { roots: o.roots, dataDir: o.dataDir, archive: o.archive, exclude: o.exclude, maxFileBytes: o.maxFileBytes, verbose: o.verbose };
}

/**
 * The data folder an entry names before anything else is loaded (`--data DIR`, `--data=DIR`, else the environment's or
 * the default): engine/start.ts and cli/start.ts, which look for their code cache there. Not parseCli: it states every
 * root given, and refuses what the command itself then explains.
 */
export function dataDirOfArgv(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const at = argv.findIndex((a) => a === '--data' || a.startsWith('--data='));
  const flag = at < 0 ? undefined : argv[at] === '--data' ? argv[at + 1] : argv[at].slice('--data='.length);
  return dataDirFrom(flag, env);
}

export function dataDirFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return resolve(flag ?? env.SESSION_SEARCH_HOME ?? join(env.HOME ?? homedir(), '.session-search'));
}

/**
 * A search for a command-line flag (`session-search search --analytics-log`) is a search, not an unknown option: for
 * the search command, dashed words that name no option of ours are query words.
 */
function flagsAsWords(argv: string[], known: Record<string, { type: string; short?: string }>): { args: string[]; words: string[] } {
  if (argv.find((a) => !a.startsWith('-')) !== 'search' || argv.includes('--')) return { args: argv, words: [] };
  const names = new Set(Object.entries(known).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]));
  const words = argv.filter((a) => /^--?\p{L}/u.test(a) && !names.has(a.split('=')[0]));
  for (const word of words) {
    // a mistyped option followed by a value it would take (`--limt 5`) is a mistake, not words to search for
    const name = word.replace(/^-+/, '').split('=')[0];
    const meant = didYouMean(name, Object.keys(known));
    const next = argv[argv.indexOf(word) + 1];
    if (meant && known[meant].type === 'string' && (word.includes('=') || (next !== undefined && takesValue(meant, next))))
      throw new UsageError(`Unknown option ${word.split('=')[0]}. Did you mean --${meant}? (To search for it, put it after --.)`);
  }
  return { args: argv.filter((a) => !words.includes(a)), words };
}

/** Whether `value` looks like what option `name` takes (so `--limt 5` is read as a typo of --limit). */
function takesValue(name: string, value: string): boolean {
  if (name === 'limit' || name === 'interval') return /^\d+$/.test(value);
  if (name === 'date' || name === 'from' || name === 'to') return /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (name === 'source') return (SOURCE_IDS as readonly string[]).includes(value);
  if (name === 'mode') return (SEARCH_MODES as readonly string[]).includes(value);
  if (name === 'root') return /^[a-z-]+=/.test(value);
  if (name === 'role') return ['user', 'assistant', 'tool', 'system'].includes(value);
  return false;
}

/** parseArgs's "Unknown option '--limt'", with the option meant when one is close. */
function unknownOption(err: unknown, known: string[]): UsageError {
  const message = errorMessage(err);
  const typed = /Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (!typed) return new UsageError(message);
  const meant = didYouMean(typed[2], known);
  return new UsageError(`Unknown option ${typed[1]}${typed[2]}.${meant ? ` Did you mean --${meant}?` : ''}`);
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  let parsed;
  let words: string[] = [];
  try {
    const options = {
      json: { type: 'boolean', default: false },
      toon: { type: 'boolean', default: false },
      limit: { type: 'string' },
      date: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      source: { type: 'string' },
      project: { type: 'string', multiple: true },
      role: { type: 'string' },
      branch: { type: 'string' },
      tag: { type: 'string', multiple: true },
      'all-tags': { type: 'boolean', default: false },
      exact: { type: 'boolean', default: false },
      repo: { type: 'boolean', default: false },
      mode: { type: 'string' },
      root: { type: 'string', multiple: true },
      'no-default-roots': { type: 'boolean', default: false },
      data: { type: 'string' },
      'no-archive': { type: 'boolean', default: false },
      exclude: { type: 'string', multiple: true },
      'max-file-mb': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      partial: { type: 'boolean', default: false },
      run: { type: 'boolean', default: false },
      format: { type: 'string' },
      out: { type: 'string' },
      'redact-home': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', short: 'V', default: false },
      team: { type: 'boolean', default: false },
      db: { type: 'string' },
      machine: { type: 'string' },
      lines: { type: 'string' },
      watch: { type: 'boolean', default: false },
      interval: { type: 'string' },
      'embed-endpoint': { type: 'string' },
      'embed-model': { type: 'string' },
      'embed-folder': { type: 'string' },
      'embed-weight': { type: 'string' },
    } as const;
    const split = flagsAsWords(argv, options);
    words = split.words;
    try {
      parsed = parseArgs({ args: split.args, allowPositionals: true, options });
    } catch (err) {
      throw unknownOption(err, Object.keys(options));
    }
  } catch (err) {
    throw err instanceof UsageError ? err : new UsageError(errorMessage(err));
  }
  const { values, positionals } = parsed;
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit expects a positive whole number, got "${values.limit}".`);
  }
  if (values.source !== undefined && !(SOURCE_IDS as readonly string[]).includes(values.source)) {
    throw new UsageError(`Unknown source "${values.source}"; known: ${SOURCE_IDS.join(', ')}.`);
  }
  if (values.mode !== undefined && !(SEARCH_MODES as readonly string[]).includes(values.mode)) {
    throw new UsageError(`--mode expects one of ${SEARCH_MODES.join(', ')}, got "${values.mode}".`);
  }
  if (values.format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`--format expects one of ${EXPORT_FORMATS.join(', ')}, got "${values.format}".`);
  }
  if (values.exact && values.repo) throw new UsageError('Choose one of --exact and --repo.');
  if (values.json && values.toon) throw new UsageError('Choose one of --json and --toon.');
  const command = positionals[0] ?? '';
  const given = values.root?.length || values['no-default-roots'];
  const roots = given ? (values.root ?? []).map(parseRoot) : defaultRoots(env);
  // a folder given by hand that is not there is a mistake (the default folders of tools never used are not); an engine
  // started by a client is given that client's folders, which may not exist yet (it reads them once they do)
  if (command !== 'serve')
    for (const r of values.root?.length ? roots : []) if (!existsSync(r.path)) throw new UsageError(`--root ${r.source}=${r.path}: no such file or folder.`);
  if (command && !COMMANDS.includes(command)) {
    const meant = didYouMean(command, COMMANDS);
    throw new UsageError(`Unknown command "${command}".${meant ? ` Did you mean ${meant}?` : ''}`);
  }
  return {
    command,
    positionals: [...positionals.slice(1), ...words],
    json: values.json,
    toon: values.toon,
    limit,
    date: values.date,
    dateFrom: values.from,
    dateTo: values.to,
    source: values.source as SourceId | undefined,
    project: values.project?.length ? resolve(values.project[values.project.length - 1]) : undefined,
    projects: values.project ?? [],
    role: values.role,
    branch: values.branch,
    lines: values.lines,
    tags: values.tag,
    allTags: values['all-tags'],
    projectScope: values.exact ? 'exact' : 'repo',
    mode: values.mode as SearchMode | undefined,
    roots,
    rootsGiven: !!given,
    dataDir: dataDirFrom(values.data, env),
    archive: !values['no-archive'],
    exclude: values.exclude ?? [],
    maxFileBytes: maxFileBytes(values['max-file-mb']),
    verbose: values.verbose,
    run: values.run,
    format: values.format as ExportFormat | undefined,
    out: values.out === undefined ? undefined : resolve(values.out),
    redactHome: values['redact-home'],
    partial: values.partial,
    help: values.help,
    version: values.version,
    team: values.team,
    db: values.db,
    machine: values.machine,
    watch: values.watch,
    interval: interval(values.interval),
    embed: embedConfig(values, env),
  };
}
