import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SqlJsStatic } from 'sql.js';

/** Writes a SQLite database made by `build` to `file`, with the same engine the product reads it with. */
export async function writeDatabase(file: string, build: (db: import('sql.js').Database) => void): Promise<void> {
  const init = (await import('sql.js')).default as unknown as () => Promise<SqlJsStatic>;
  const SQL = await init();
  const db = new SQL.Database();
  build(db);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, db.export());
  db.close();
}

/** Writes a Cursor `state.vscdb` (its ItemTable and cursorDiskKV tables); `fill` puts JSON values by key in cursorDiskKV. */
export function writeCursorDatabase(file: string, fill: (put: (key: string, value: unknown) => void) => void): Promise<void> {
  return writeDatabase(file, (db) => {
    db.run('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    db.run('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    fill((key, value) => db.run('INSERT INTO cursorDiskKV VALUES (?, ?)', [key, JSON.stringify(value)]));
  });
}
