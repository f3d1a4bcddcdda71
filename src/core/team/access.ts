/**
 * Who sees what in the team archive: a person shares one of their projects with a role or group
 * (`team share <project> <role>`); row-level security (schema.ts) does the rest. Only the owner's own shares are
 * written: a role cannot share someone else's sessions.
 */
import { SCHEMA } from './schema.js';
import { TeamError, type TeamDatabase } from './connection.js';

export interface Share {
  owner: string;
  project: string;
  grantee: string;
}

const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;

function checkNames(project: string, grantee: string): void {
  if (!project.trim() || /[/\\]/.test(project)) throw new TeamError(`share a project by its folder name (e.g. "webapp"), got "${project}".`);
  if (!ROLE_NAME.test(grantee)) throw new TeamError(`"${grantee}" is not a database role name.`);
}

export async function share(db: TeamDatabase, project: string, grantee: string): Promise<Share> {
  checkNames(project, grantee);
  const owner = await db.role();
  return db.withClient(async (client) => {
    const known = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [grantee]);
    if (!known.rowCount) throw new TeamError(`there is no database role "${grantee}": an admin creates it (CREATE ROLE ${grantee} …) first.`);
    await client.query(`INSERT INTO ${SCHEMA}.shares (project, grantee) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [project, grantee]);
    return { owner, project, grantee };
  });
}

export async function unshare(db: TeamDatabase, project: string, grantee: string): Promise<{ removed: boolean }> {
  checkNames(project, grantee);
  await db.role();
  return db.withClient(async (client) => {
    const { rowCount } = await client.query(`DELETE FROM ${SCHEMA}.shares WHERE owner = current_user AND project = $1 AND grantee = $2`, [project, grantee]);
    return { removed: !!rowCount };
  });
}

/** The shares this role made and those made to it (or a group it belongs to). */
export async function shares(db: TeamDatabase): Promise<Share[]> {
  await db.role();
  return db.withClient(async (client) => {
    const { rows } = await client.query<Share>(
      `SELECT owner::text AS owner, project, grantee::text AS grantee FROM ${SCHEMA}.shares ORDER BY owner, project, grantee`,
    );
    return rows;
  });
}

/** What this role can read: sessions by owner and machine. */
export async function visible(db: TeamDatabase): Promise<{ owner: string; machine: string; project: string; sessions: number }[]> {
  await db.role();
  return db.withClient(async (client) => {
    const { rows } = await client.query<{ owner: string; machine: string; project: string; sessions: string }>(
      `SELECT owner::text AS owner, machine, project, count(*) AS sessions FROM ${SCHEMA}.sessions GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    return rows.map((r) => ({ ...r, sessions: Number(r.sessions) }));
  });
}
