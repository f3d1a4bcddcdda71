/**
 * A PostgreSQL cluster of the tests' own: `initdb` in a temporary folder, `pg_ctl` on 127.0.0.1 and a free port,
 * stopped and removed at the end. Never a shared or remote server. PostgreSQL refuses to run as root: as root the
 * server runs as the `postgres` user the distribution's package creates.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

/** The folder holding initdb and pg_ctl: on PATH, or the newest under /usr/lib/postgresql (Debian's layout). */
function binDir(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'initdb'))) return dir;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('PostgreSQL is not installed: apt-get install postgresql-15 (.ci/run does)');
  return join(base, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const ADMIN = 'team_admin';
export const ADMIN_PASSWORD = 'admin-secret';

export interface Cluster {
  port: number;
  /** A connection URL for a role (its password is the role name followed by `-pw`, as `createRole` sets it). */
  url(role: string, database?: string): string;
  /** Runs SQL as the admin role (the cluster's superuser) in `database`. */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params?: unknown[], database?: string): Promise<T[]>;
  createRole(name: string, options?: string): Promise<void>;
  /** Stops the server at once (as a crash or a lost host would), leaving the data folder for `start`. */
  kill(): void;
  start(): void;
  /** Stops the server and removes its folder. */
  stop(): void;
}

export async function startCluster(): Promise<Cluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'session-search-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]): string => {
    const [cmd, all] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    return execFileSync(cmd, all, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${ADMIN_PASSWORD}\n`);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(dir, 0o700);
  run('initdb', ['-D', data, '-U', ADMIN, '--pwfile', pwfile, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-locale']);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off`;
  const start = (): void => void run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', options, 'start']);
  start();
  const url = (role: string, database = 'team'): string => `postgres://${role}:${role === ADMIN ? ADMIN_PASSWORD : `${role}-pw`}@127.0.0.1:${port}/${database}`;
  const sql = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = [], database = 'team'): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url(ADMIN, database) });
    await client.connect();
    try {
      return (await client.query<T>(text, params)).rows;
    } finally {
      await client.end();
    }
  };
  await sql('CREATE DATABASE team', [], 'postgres');
  let stopped = false;
  const stopServer = (mode: string): void => {
    try {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  const cluster: Cluster = {
    port,
    url,
    sql,
    async createRole(name, extra = '') {
      await sql(`CREATE ROLE ${name} LOGIN PASSWORD '${name}-pw' ${extra}`);
    },
    kill: () => stopServer('immediate'),
    start,
    stop() {
      if (stopped) return;
      stopped = true;
      stopServer('fast');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  process.once('exit', () => cluster.stop());
  return cluster;
}
