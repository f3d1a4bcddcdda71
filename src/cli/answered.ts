/**
 * The commands an engine answers (search, get, list, files, tag, untag, tags, preferences, resume, export, sources),
 * given the engine or the library in this process behind the same facade: run alike by the quick entry (quick.ts) and
 * the full CLI (main.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { SearchOptions } from '../core/contracts.js';
import type { Role } from '../core/model.js';
import { SessionSearchError } from '../core/errors.js';
import type { Engine } from '../engine/api.js';
import { UsageError, type CliOptions } from './args.js';
import { renderFiles } from './files.js';
import { print } from './output.js';
import { preferencesCommand, tagCommand, tagsList } from './personal.js';
import { nothingOnDisk, renderGet, renderList, renderSearch, renderSources } from './render.js';

export const ANSWERED = new Set(['search', 'get', 'list', 'files', 'tag', 'untag', 'tags', 'preferences', 'resume', 'export', 'sources']);

/** A command's own arguments, checked before any engine is started or library loaded for it. */
export function checkArguments(options: CliOptions): void {
  const first = options.positionals[0];
  if (options.command === 'search' && !options.positionals.join(' ').trim())
    throw new UsageError('search needs words to look for, e.g. session-search search "flaky date test"');
  if (options.command === 'get' && !first) throw new UsageError('get needs a session name or id; find one with `session-search list` or `search`.');
  if (options.command === 'files' && !first) throw new UsageError('files needs the path of a file: `session-search files src/app.ts [--lines 40-80]`.');
}

/** The filters search and list share: dates, source, project (and how far it reaches), branch, tags. */
function sessionFilters(
  options: CliOptions,
): Pick<SearchOptions, 'date' | 'dateFrom' | 'dateTo' | 'source' | 'project' | 'branch' | 'projectScope' | 'tags' | 'allTags'> {
  const { date, dateFrom, dateTo, source, project, branch, projectScope, tags, allTags } = options;
  return { date, dateFrom, dateTo, source, project, branch, projectScope, tags, allTags };
}

/** The configured roots and whether each exists (for "nothing on disk"). */
function describeRoots(options: CliOptions): { source: string; path: string; exists: boolean }[] {
  return options.roots.map((r) => ({ source: r.source, path: r.path, exists: existsSync(r.path) }));
}

/** Answers one of ANSWERED; its exit status. */
export async function answerCommand(options: CliOptions, engine: Engine): Promise<number> {
  const color = !!process.stdout.isTTY && !process.env.NO_COLOR;
  const machine = options.json || options.toon;
  switch (options.command) {
    case 'search': {
      const answer = await engine.search(options.positionals.join(' '), {
        ...sessionFilters(options),
        limit: options.limit ?? (machine ? undefined : 10),
        role: options.role as Role | undefined,
        mode: options.mode,
      });
      // nothing found and nothing indexed: say where sessions were looked for
      const empty = !answer.results.length && !answer.indexing && !(await engine.list({ limit: 1 })).count;
      print(options, answer, () => (empty ? nothingOnDisk(describeRoots(options)) : renderSearch(answer, color)));
      return 0;
    }
    case 'get': {
      const response = await engine.get(options.positionals[0], options.toon ? 'toon' : 'json');
      print(options, response, () => renderGet(response));
      return 0;
    }
    case 'list': {
      const response = await engine.list({
        ...sessionFilters(options),
        limit: options.limit ?? (machine ? undefined : 50),
        format: options.toon ? 'toon' : 'auto',
      });
      print(options, response, () => (response.count || response.indexing ? renderList(response, color) : nothingOnDisk(describeRoots(options))));
      return 0;
    }
    case 'files': {
      const response = await engine.fileHistory({ path: resolve(options.positionals[0]), lines: options.lines, limit: options.limit, since: options.dateFrom });
      print(options, response, () => renderFiles(response, color));
      return 0;
    }
    case 'tag':
    case 'untag': {
      const { value, text } = await tagCommand(engine, options.command, options.positionals);
      print(options, value, () => text);
      return 0;
    }
    case 'tags': {
      const { value, text } = tagsList(await engine.userTags());
      print(options, value, () => text);
      return 0;
    }
    case 'resume':
      return resume(options, engine);
    case 'sources': {
      const report = await engine.sources(options.roots);
      print(options, { sources: report }, () => renderSources(report));
      return 0;
    }
    case 'export': {
      const name = options.positionals[0];
      if (!name) throw new UsageError('export needs a session name or id; find one with `session-search search` or `list`.');
      if (options.out && !existsSync(dirname(options.out))) throw new UsageError(`--out ${options.out}: the folder ${dirname(options.out)} does not exist.`);
      const format = options.format ?? (options.json ? 'json' : 'md');
      const { text } = await engine.export(name, format, options.redactHome ? { home: homedir() } : {});
      if (options.out) {
        await writeFile(options.out, text);
        process.stderr.write(`session-search: wrote ${options.out}\n`);
      } else process.stdout.write(text);
      return 0;
    }
    case 'preferences': {
      const { value, text } = await preferencesCommand(engine, options.positionals, options.project);
      print(options, value, () => text);
      return 0;
    }
    default:
      throw new UsageError(`"${options.command}" is not answered by the engine.`);
  }
}

/** `resume <name>`: the command that reopens the session in its tool (in its project folder), or with --run, run. */
async function resume(options: CliOptions, engine: Engine): Promise<number> {
  const name = options.positionals[0];
  if (!name) throw new UsageError('resume needs a session name or id; find one with `session-search search` or `list`.');
  const session = await engine.info(name);
  if (session.sourceDeleted)
    throw new SessionSearchError(
      'FILE_NOT_FOUND',
      `${session.source} no longer has this session: its transcript ${session.file} was deleted (Session Search keeps it in the archive: session-search get ${session.id}).`,
    );
  // (the command's words never need quoting: core/resume.ts gives one only for an id of letters, digits and .:_-)
  const args = session.resumeCommand?.split(' ');
  if (!args) throw new SessionSearchError('INVALID_ARGUMENT', `${session.source} sessions cannot be reopened by id from the command line.`);
  const cwd = session.project && existsSync(session.project) ? session.project : undefined;
  if (!options.run) {
    const line = `${cwd ? `cd ${shellQuote(cwd)} && ` : ''}${args.join(' ')}`;
    print(options, { command: args.join(' '), cwd: cwd ?? null }, () => `${line}\n`);
    return 0;
  }
  const ran = spawnSync(args[0], args.slice(1), { cwd, stdio: 'inherit' });
  if ((ran.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new SessionSearchError('FILE_NOT_FOUND', `\`${args[0]}\` is not installed or not on PATH; the command is: ${args.join(' ')}`);
  return ran.status ?? 1;
}

/** A path as a POSIX shell reads it. */
function shellQuote(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
