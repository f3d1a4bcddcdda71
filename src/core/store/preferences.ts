/**
 * Preferences a person set by hand (`update_preferences`), kept in the data folder's `preferences.json`
 * (`{version: 1, manual: {<category>: <value>}, updated}`). A manual value wins over a learned one until it is cleared
 * (set to null or ""). Values are masked like everything else before they are stored.
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionSearchError } from '../errors.js';
import { maskText } from '../mask.js';
import { makePrivateDir, PRIVATE } from './private.js';

export const MAX_PREFERENCE_CHARS = 2000;
const MAX_CATEGORIES = 50;

interface Stored {
  manual: Record<string, string>;
  updated?: string;
}

export class PreferenceStore {
  private readonly file: string | undefined;
  private memory: Stored = { manual: {} };

  constructor(dataDir: string | undefined) {
    this.file = dataDir ? join(dataDir, 'preferences.json') : undefined;
  }

  read(): Stored {
    if (!this.file) return this.memory;
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Stored>;
      const manual: Record<string, string> = {};
      for (const [k, v] of Object.entries(parsed.manual ?? {})) if (typeof v === 'string') manual[k] = v;
      return { manual, updated: typeof parsed.updated === 'string' ? parsed.updated : undefined };
    } catch {
      return { manual: {} };
    }
  }

  /** Merges `changes` into the manual values: a string sets one, null or "" clears it. Answers the manual values. */
  async update(changes: Record<string, unknown>, now = new Date()): Promise<Stored> {
    if (typeof changes !== 'object' || changes === null || Array.isArray(changes))
      throw new SessionSearchError('INVALID_ARGUMENT', 'preferences must be an object of category: value.');
    const entries = Object.entries(changes);
    if (!entries.length) throw new SessionSearchError('INVALID_ARGUMENT', 'preferences is empty: give at least one category, e.g. {"testing": "Vitest"}.');
    const current = this.read();
    const manual = { ...current.manual };
    for (const [rawKey, value] of entries) {
      const key = rawKey
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
      if (!/^[a-z][a-z0-9_]{0,49}$/.test(key))
        throw new SessionSearchError('INVALID_ARGUMENT', `"${rawKey.slice(0, 60)}" is not a category name (letters, digits and _, at most 50).`);
      if (value === null || value === '') delete manual[key];
      else if (typeof value !== 'string') throw new SessionSearchError('INVALID_ARGUMENT', `the value of ${key} must be text (or null to clear it).`);
      else if (value.length > MAX_PREFERENCE_CHARS)
        throw new SessionSearchError('INVALID_ARGUMENT', `the value of ${key} is ${value.length} characters; at most ${MAX_PREFERENCE_CHARS}.`);
      else manual[key] = maskText(value.trim());
    }
    if (Object.keys(manual).length > MAX_CATEGORIES) throw new SessionSearchError('INVALID_ARGUMENT', `at most ${MAX_CATEGORIES} categories.`);
    const next: Stored = { manual, updated: now.toISOString() };
    if (!this.file) this.memory = next;
    else {
      await makePrivateDir(join(this.file, '..'));
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify({ version: 1, ...next }, null, 1)}\n`, PRIVATE);
      await rename(temp, this.file);
    }
    return next;
  }
}
