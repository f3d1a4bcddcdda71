/**
 * The connection to a team archive: a small pool to the PostgreSQL database named by `--db` or
 * SESSION_SEARCH_TEAM_DB, with short timeouts so that a database that went away turns into a clear notice and local
 * results, never a hang. The URL's password is never shown.
 */
import pg from 'pg';
import { errorMessage } from '../errors.js';
import { checkSchema } from './schema.js';

/** Something about the team archive the person must know (unreachable, not initialised, too new, not a member). */
export class TeamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TeamError';
  }
}

/** The team database's URL from the flag or the environment; undefined when none is configured. */
export function teamUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const url = flag ?? env.SESSION_SEARCH_TEAM_DB;
  return url?.trim() ? url.trim() : undefined;
}

/** The URL without its password, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an invalid database URL)';
  }
}

/** A driver error as a sentence a person can act on. */
export function teamErrorMessage(err: unknown, url: string): string {
  if (err instanceof TeamError) return err.message;
  const code = (err as { code?: string }).code;
  const where = shownUrl(url);
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ECONNRESET' ||
    code === 'EHOSTUNREACH' ||
    /timeout|terminat|Connection/i.test(errorMessage(err))
  )
    return `the team database at ${where} cannot be reached (${errorMessage(err)})`;
  if (code === '42501') return `your database role may not use the team archive at ${where} (${errorMessage(err)}): an admin grants it session_search_member`;
  if (code === '28P01' || code === '28000') return `the team database at ${where} refused the login (${errorMessage(err)})`;
  return `the team database at ${where} answered with an error: ${errorMessage(err)}`;
}

export interface TeamOptions {
  /** How long to wait for a connection (ms). */
  connectTimeoutMs?: number;
  /** How long one statement may run (ms). */
  queryTimeoutMs?: number;
}

export class TeamDatabase {
  private readonly pool: pg.Pool;
  private checked: Promise<string> | undefined;

  constructor(
    readonly url: string,
    options: TeamOptions = {},
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: 2,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000,
      query_timeout: options.queryTimeoutMs ?? 30_000,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // a connection that breaks while idle (the server stopped) is dropped from the pool; the next query says so
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** The role this client is connected as, once the schema was checked (a newer or missing schema is refused). */
  role(): Promise<string> {
    this.checked ??= this.withClient(async (client) => {
      await checkSchema(client);
      const { rows } = await client.query<{ role: string }>('SELECT current_user AS role');
      return rows[0].role;
    }).catch((err: unknown) => {
      this.checked = undefined;
      throw err;
    });
    return this.checked;
  }

  /** Runs `work` on one pooled connection (released after, even on error). Driver errors become TeamErrors. */
  async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new TeamError(teamErrorMessage(err, this.url));
    }
    let broken: unknown;
    try {
      return await work(client);
    } catch (err) {
      broken = err;
      throw err instanceof TeamError ? err : new TeamError(teamErrorMessage(err, this.url));
    } finally {
      client.release(broken instanceof Error && !(broken instanceof TeamError) ? broken : undefined);
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
