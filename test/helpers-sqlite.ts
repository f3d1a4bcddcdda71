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
