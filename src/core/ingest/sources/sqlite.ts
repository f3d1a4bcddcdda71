/**
 * Read-only SQLite for sources that keep chats in a database (Cursor's state.vscdb, OpenCode's opencode.db). sql.js is
 * SQLite compiled to WebAssembly: no native module, so the same bundle runs in the CLI, the MCP server and VS Code's
 * extension host whatever its Electron ABI. The database file is read into memory and never opened for writing, so a
 * running editor is never disturbed; rows still only in its WAL file are picked up after the editor checkpoints.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, SqlJsStatic } from 'sql.js';

export const MAX_DATABASE_BYTES = 1024 * 1024 * 1024;
let engine: Promise<SqlJsStatic> | undefined;

/**
 * SQLite's WebAssembly: beside the bundle that runs (esbuild.mjs copies it into dist/), or in the package when run
 * from source. Kept out of the bundles, so that starting the MCP server or the CLI does not parse a megabyte of it.
 */
function wasmFile(): string {
  // a CommonJS bundle has __dirname; ESM (the CLI and MCP bundles, or source on a thread) has import.meta.url
  const here = typeof __dirname === 'string' && isAbsolute(__dirname) ? __dirname : dirname(fileURLToPath(import.meta.url));
  const beside = join(here, 'sql-wasm.wasm');
  return existsSync(beside) ? beside : createRequire(join(here, 'sqlite.js')).resolve('sql.js/dist/sql-wasm.wasm');
}

async function sqlJs(): Promise<SqlJsStatic> {
  engine ??= (async () => {
    const wasmBinary = await readFile(wasmFile());
    const init = (await import('sql.js')).default as unknown as (c?: object) => Promise<SqlJsStatic>;
    return init({ wasmBinary });
  })();
  engine.catch(() => (engine = undefined));
  return engine;
}

export async function withDatabase<T>(file: string, use: (db: Database) => T): Promise<T> {
  const info = await stat(file);
  if (info.size > MAX_DATABASE_BYTES) throw new Error(`database of ${info.size} bytes is over the ${MAX_DATABASE_BYTES}-byte limit`);
  const SQL = await sqlJs();
  const db = new SQL.Database(await readFile(file));
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** Rows of a query as objects; an absent table gives no rows rather than an error. */
export function rows(db: Database, sql: string, params: (string | number)[] = []): Record<string, unknown>[] {
  let statement;
  try {
    statement = db.prepare(sql);
  } catch (err) {
    if (err instanceof Error && /no such (table|column)/.test(err.message)) return [];
    throw err;
  }
  try {
    statement.bind(params);
    const out: Record<string, unknown>[] = [];
    while (statement.step()) out.push(statement.getAsObject());
    return out;
  } finally {
    statement.free();
  }
}

export function tableNames(db: Database): Set<string> {
  return new Set(rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'").map((r) => String(r.name)));
}

/** A value column as text: SQLite BLOBs arrive as bytes. */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return undefined;
}
