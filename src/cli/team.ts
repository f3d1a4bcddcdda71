/**
 * `session-search team …`: the team archive on PostgreSQL. `init` (an admin, once: schema, policies, the member
 * role), `push` (this machine's sessions of the chosen projects, incremental; `--watch` keeps going), `share` and
 * `unshare` (a project of yours with a role or group), `shares`, `status`.
 */
import type { SessionLibrary } from '../core/library.js';
import { TeamDatabase, teamUrl, shownUrl } from '../core/team/connection.js';
import { migrate, SCHEMA_VERSION } from '../core/team/schema.js';
import type { PushResult } from '../core/team/push.js';
import type { TeamRef } from '../core/team/id.js';
import { share, shares, unshare, visible } from '../core/team/access.js';
import { machineName, TeamArchive } from '../core/team/archive.js';
import { UsageError, type CliOptions } from './args.js';

type Out = { value: unknown; text: string };

export function teamDatabase(options: CliOptions): TeamDatabase {
  const url = teamUrl(options.db, process.env);
  if (!url) throw new UsageError('the team archive needs a database: --db postgres://<role>@<host>/<database> or SESSION_SEARCH_TEAM_DB.');
  return new TeamDatabase(url);
}

/** The team archive beside the local one, for search --team (the library opens it) and get of a team id. */
export function teamRef(options: CliOptions): TeamRef {
  const url = teamUrl(options.db, process.env);
  if (!url) throw new UsageError('--team needs a database: --db postgres://<role>@<host>/<database> or SESSION_SEARCH_TEAM_DB.');
  return { url, machine: options.machine };
}

export function teamArchive(options: CliOptions): TeamArchive {
  const { url, machine } = teamRef(options);
  return new TeamArchive(url, machineName(machine, process.env));
}

function pushLine(r: PushResult): string {
  return `${r.role}@${r.machine}: ${r.selected} session${r.selected === 1 ? '' : 's'} of the chosen projects; ${r.written} written, ${r.appended} appended, ${r.unchanged} unchanged; ${r.turns} turns sent\n`;
}

async function push(options: CliOptions, openLibrary: () => Promise<SessionLibrary>, print: (o: Out) => void): Promise<void> {
  const library = await openLibrary();
  const team = teamRef(options);
  const progress = (p: { done: number; total: number }): void => {
    if (process.stderr.isTTY && !options.json) process.stderr.write(`\rpushing ${p.done}/${p.total} sessions…`);
  };
  const once = async (): Promise<void> => {
    const result = await library.pushToTeam(team, { projects: options.projects, onProgress: progress });
    if (process.stderr.isTTY && !options.json) process.stderr.write('\r\x1b[K');
    print({ value: result, text: pushLine(result) });
  };
  await once();
  if (!options.watch) return;
  const every = (options.interval ?? 60) * 1000;
  let stopped = false;
  process.once('SIGINT', () => (stopped = true));
  process.once('SIGTERM', () => (stopped = true));
  while (!stopped) {
    await new Promise((resolve) => setTimeout(resolve, every));
    if (stopped) break;
    await library.catchUp();
    await once().catch((err: unknown) => process.stderr.write(`push failed, trying again in ${every / 1000} s: ${(err as Error).message}\n`));
  }
}

export async function teamCommand(options: CliOptions, openLibrary: () => Promise<SessionLibrary>, print: (o: Out) => void): Promise<void> {
  const [action, ...rest] = options.positionals;
  const db = teamDatabase(options);
  try {
    switch (action) {
      case 'init': {
        const { from, to } = await db.withClient((client) => migrate(client));
        const text =
          from === to
            ? `the team archive at ${shownUrl(db.url)} is up to date (schema ${to})\n`
            : `the team archive at ${shownUrl(db.url)}: schema ${from} → ${to}. Give each person a role in it: CREATE ROLE <name> LOGIN PASSWORD '…' IN ROLE session_search_member;\n`;
        print({ value: { schema: to, from }, text });
        return;
      }
      case 'push':
        await push(options, openLibrary, print);
        return;
      case 'share':
      case 'unshare': {
        const [project, grantee] = rest;
        if (!project || !grantee) throw new UsageError(`team ${action} <project folder name> <role or group>, e.g. team ${action} webapp reviewers`);
        if (action === 'share') {
          const made = await share(db, project, grantee);
          print({ value: made, text: `${made.owner}'s sessions of ${made.project} can be read by ${made.grantee}\n` });
        } else {
          const { removed } = await unshare(db, project, grantee);
          print({ value: { removed }, text: removed ? `${project} is no longer shared with ${grantee}\n` : `${project} was not shared with ${grantee}\n` });
        }
        return;
      }
      case 'shares': {
        const list = await shares(db);
        print({ value: { shares: list }, text: list.length ? list.map((s) => `${s.owner}: ${s.project} → ${s.grantee}\n`).join('') : 'no shares\n' });
        return;
      }
      case 'status': {
        const role = await db.role();
        const seen = await visible(db);
        const lines = seen.map((v) => `  ${v.owner}@${v.machine}  ${v.project || '(no project)'}  ${v.sessions} session${v.sessions === 1 ? '' : 's'}`);
        print({
          value: { role, schema: SCHEMA_VERSION, visible: seen },
          text: `connected to ${shownUrl(db.url)} as ${role} (schema ${SCHEMA_VERSION})\n${lines.length ? `${lines.join('\n')}\n` : '  nothing you may read yet\n'}`,
        });
        return;
      }
      default:
        throw new UsageError(`team takes init, push, share, unshare, shares or status${action ? `, not "${action}"` : ''}.`);
    }
  } finally {
    await db.close();
  }
}
