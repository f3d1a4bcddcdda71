/**
 * The team archive's schema in PostgreSQL, as numbered migrations applied by `session-search team init` (an admin
 * role). Every person connects as their own role, a member of `session_search_member`; row-level security lets a role
 * read its own sessions and those of projects shared with it (directly or through a group it belongs to), and write
 * only its own. A role with nothing shared sees no rows. The client never needs more than membership.
 */
import type { ClientBase } from 'pg';
import { TeamError } from './connection.js';

export const SCHEMA = 'session_search';
export const MEMBER_ROLE = 'session_search_member';

/** Migrations in order; `team init` applies those above the recorded version, each in one transaction. */
const MIGRATIONS: string[] = [
  // 1: sessions (one row each, with the text PostgreSQL ranks candidates on), their turns, and shares
  `
  DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${MEMBER_ROLE}') THEN CREATE ROLE ${MEMBER_ROLE} NOLOGIN; END IF;
  END $$;
  CREATE TABLE ${SCHEMA}.sessions (
    owner name NOT NULL DEFAULT current_user,
    machine text NOT NULL,
    id text NOT NULL,
    source text NOT NULL,
    project text NOT NULL DEFAULT '',
    project_path text,
    branch text,
    title text NOT NULL,
    created timestamptz,
    updated timestamptz,
    first_day date,
    last_day date,
    turn_count int NOT NULL DEFAULT 0,
    turns_hash text NOT NULL DEFAULT '',
    conversation text NOT NULL DEFAULT '',
    messages text NOT NULL DEFAULT '',
    doc tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', title), 'A') ||
      setweight(to_tsvector('english', conversation), 'B') ||
      setweight(to_tsvector('english', messages), 'D')
    ) STORED,
    -- what candidates are ranked on: small enough to stay in the row, so ranking thousands of matches reads no TOAST
    head tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', title), 'A') ||
      setweight(to_tsvector('english', left(conversation, 6000)), 'B') ||
      setweight(to_tsvector('english', left(messages, 2000)), 'D')
    ) STORED,
    pushed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (owner, machine, id)
  );
  CREATE INDEX sessions_doc ON ${SCHEMA}.sessions USING gin (doc);
  CREATE INDEX sessions_project ON ${SCHEMA}.sessions (owner, project);
  CREATE TABLE ${SCHEMA}.turns (
    owner name NOT NULL DEFAULT current_user,
    machine text NOT NULL,
    session_id text NOT NULL,
    idx int NOT NULL,
    role text NOT NULL,
    kind text NOT NULL,
    tool text,
    at text,
    text text NOT NULL,
    PRIMARY KEY (owner, machine, session_id, idx),
    FOREIGN KEY (owner, machine, session_id) REFERENCES ${SCHEMA}.sessions (owner, machine, id) ON DELETE CASCADE
  );
  CREATE TABLE ${SCHEMA}.shares (
    owner name NOT NULL DEFAULT current_user,
    project text NOT NULL,
    grantee name NOT NULL,
    PRIMARY KEY (owner, project, grantee)
  );
  -- whether a role may read a project of an owner: its own, or shared with it or a group it belongs to
  -- (a grantee dropped since is skipped, never an error)
  CREATE FUNCTION ${SCHEMA}.visible_to(who name, o name, p text) RETURNS boolean LANGUAGE sql STABLE AS $f$
    SELECT o = who OR EXISTS (
      SELECT 1 FROM ${SCHEMA}.shares s
      WHERE s.owner = o AND s.project = p
        AND CASE WHEN EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = s.grantee)
                 THEN pg_has_role(who, s.grantee, 'MEMBER') ELSE false END)
  $f$;
  CREATE FUNCTION ${SCHEMA}.can_read(o name, p text) RETURNS boolean LANGUAGE sql STABLE AS $f$
    SELECT ${SCHEMA}.visible_to(current_user, o, p)
  $f$;
  -- Full-text candidates for the role logged in. Under row-level security PostgreSQL cannot use the GIN index for
  -- @@ (the operator is not leakproof), so every search would read every document: this function (the schema
  -- owner's rights, a fixed search_path) uses the index and applies the same visibility rule itself, and returns
  -- only keys and ranks; the rows are then read through row-level security as usual.
  CREATE FUNCTION ${SCHEMA}.match(q tsquery, lim int, src text, br text, proj text, from_day date, to_day date)
    RETURNS TABLE (owner name, machine text, id text, rank real)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    SELECT s.owner, s.machine, s.id, ts_rank(s.head, q, 1) AS rank FROM ${SCHEMA}.sessions s
    WHERE s.doc @@ q AND ${SCHEMA}.visible_to(session_user, s.owner, s.project)
      AND (src IS NULL OR s.source = src) AND (br IS NULL OR s.branch = br) AND (proj IS NULL OR s.project = proj)
      AND (from_day IS NULL OR coalesce(s.last_day, s.first_day) >= from_day) AND (to_day IS NULL OR s.first_day <= to_day)
    ORDER BY rank DESC LIMIT least(lim, 200)
  $f$;
  REVOKE ALL ON FUNCTION ${SCHEMA}.match(tsquery, int, text, text, text, date, date) FROM PUBLIC;
  ALTER TABLE ${SCHEMA}.sessions ENABLE ROW LEVEL SECURITY;
  ALTER TABLE ${SCHEMA}.turns ENABLE ROW LEVEL SECURITY;
  ALTER TABLE ${SCHEMA}.shares ENABLE ROW LEVEL SECURITY;
  CREATE POLICY own ON ${SCHEMA}.sessions USING (owner = current_user) WITH CHECK (owner = current_user);
  CREATE POLICY shared ON ${SCHEMA}.sessions FOR SELECT USING (${SCHEMA}.can_read(owner, project));
  CREATE POLICY own ON ${SCHEMA}.turns USING (owner = current_user) WITH CHECK (owner = current_user);
  CREATE POLICY shared ON ${SCHEMA}.turns FOR SELECT USING (EXISTS (
    SELECT 1 FROM ${SCHEMA}.sessions s WHERE s.owner = turns.owner AND s.machine = turns.machine AND s.id = turns.session_id));
  CREATE POLICY own ON ${SCHEMA}.shares USING (owner = current_user) WITH CHECK (owner = current_user);
  CREATE POLICY granted ON ${SCHEMA}.shares FOR SELECT USING (
    CASE WHEN EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = grantee) THEN pg_has_role(current_user, grantee, 'MEMBER') ELSE false END);
  GRANT USAGE ON SCHEMA ${SCHEMA} TO ${MEMBER_ROLE};
  GRANT SELECT, INSERT, UPDATE, DELETE ON ${SCHEMA}.sessions, ${SCHEMA}.turns, ${SCHEMA}.shares TO ${MEMBER_ROLE};
  GRANT SELECT ON ${SCHEMA}.schema_version TO ${MEMBER_ROLE};
  GRANT EXECUTE ON FUNCTION ${SCHEMA}.can_read(name, text), ${SCHEMA}.visible_to(name, name, text) TO ${MEMBER_ROLE};
  GRANT EXECUTE ON FUNCTION ${SCHEMA}.match(tsquery, int, text, text, text, date, date) TO ${MEMBER_ROLE};
  `,
];

/** The schema version this client reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The version the database holds; 0 when `team init` has not run. */
export async function schemaVersion(client: ClientBase): Promise<number> {
  const exists = await client.query(`SELECT to_regclass('${SCHEMA}.schema_version') AS t`);
  if (!exists.rows[0]?.t) return 0;
  const { rows } = await client.query(`SELECT coalesce(max(version), 0) AS v FROM ${SCHEMA}.schema_version`);
  return Number(rows[0]?.v ?? 0);
}

/** Refuses a database this client cannot use: not initialised, or a schema newer than this client. */
export async function checkSchema(client: ClientBase): Promise<void> {
  const version = await schemaVersion(client);
  if (version === 0) throw new TeamError('the team database has no Session Search schema yet: an admin runs `session-search team init --db <url>` first.');
  if (version > SCHEMA_VERSION)
    throw new TeamError(
      `the team database's schema is version ${version}, newer than this Session Search understands (${SCHEMA_VERSION}): upgrade Session Search to use it.`,
    );
  if (version < SCHEMA_VERSION)
    throw new TeamError(`the team database's schema is version ${version}; an admin runs \`session-search team init\` to upgrade it.`);
}

/** Applies the migrations the database lacks (as an admin role that may create schemas and roles). */
export async function migrate(client: ClientBase): Promise<{ from: number; to: number }> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.schema_version (version int PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`);
  const from = await schemaVersion(client);
  if (from > SCHEMA_VERSION) await checkSchema(client);
  for (let v = from + 1; v <= SCHEMA_VERSION; v++) {
    await client.query('BEGIN');
    try {
      await client.query(MIGRATIONS[v - 1]);
      await client.query(`INSERT INTO ${SCHEMA}.schema_version (version) VALUES ($1)`, [v]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  }
  return { from, to: SCHEMA_VERSION };
}
