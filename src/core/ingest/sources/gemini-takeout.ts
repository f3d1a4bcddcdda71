/**
 * Gemini's history from Google Takeout (imported with `session-search import`): "My Activity" → "Gemini Apps" in JSON,
 * `Takeout/My Activity/Gemini Apps/MyActivity.json` (or the Takeout zip itself, read from inside), one array of activity records, newest first:
 * `{header: "Gemini Apps", title: "Prompted <what was typed>", time, safeHtmlItem[{html}]}` where the HTML is Gemini's
 * answer. Records carry no conversation id, so the prompts of one day make one session ("Gemini Apps, 2025-03-04").
 * The title's verb (`Prompted`, `Asked`, `Said`, …) is dropped; records of other kinds (a feedback, a setting) are
 * skipped. The answer's HTML becomes text: tags are dropped (block ends become line breaks), entities decoded.
 */
import { basename } from 'node:path';
import { buildSession, type RawTurn } from './build.js';
import { isRecord, isoTime, readJsonDocument, str } from './line-files.js';
import { readZippedJson } from './zip.js';
import type { SourceAdapter } from './types.js';

const MAX_EXPORT_BYTES = 512 * 1024 * 1024;
const PROMPT = /^(?:Prompted|Asked|Said|Branched|Answered)(?: with)?:?\s+/;
// (a Map: `&constructor;` in a page is text, not a property of every object)
const ENTITIES = new Map(Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }));

/** Text of Takeout's sanitised answer HTML, never parsed as markup anywhere else. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/pre)\b[^>]*>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, code: string) => {
      if (code[0] === '#') {
        const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
        return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
      }
      return ENTITIES.get(code.toLowerCase()) ?? whole;
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Inside a Takeout zip: `Takeout/My Activity/Gemini Apps/MyActivity.json` (the folder names follow the account's language). */
export const isGeminiActivity = (name: string): boolean => basename(name) === 'MyActivity.json' && /Gemini|Bard/.test(name);

export function isGeminiTakeout(doc: unknown): doc is Record<string, unknown>[] {
  return Array.isArray(doc) && doc.length > 0 && doc.filter(isRecord).some((r) => /Gemini|Bard/.test(str(r.header) ?? '') && typeof r.title === 'string');
}

export const geminiTakeoutSource: SourceAdapter = {
  id: 'gemini-takeout',
  label: 'Gemini (Google Takeout)',
  defaultRoots: () => [],
  accepts: (file) => basename(file) === 'MyActivity.json' || file.endsWith('.zip'),
  async readFile(file, _root, ctx) {
    const read = file.endsWith('.zip')
      ? await readZippedJson(file, isGeminiActivity, MAX_EXPORT_BYTES)
      : await readJsonDocument(file, ctx.logger, MAX_EXPORT_BYTES);
    if (!read) {
      if (file.endsWith('.zip')) ctx.logger.info(`${file}: no Gemini Apps MyActivity.json inside, not indexed`);
      return [];
    }
    if (!isGeminiTakeout(read.doc)) {
      ctx.logger.info(`${file}: not a Gemini Apps activity export, not indexed`);
      return [];
    }
    const days = new Map<string, RawTurn[]>();
    const records = read.doc.filter(isRecord).map((r) => ({ r, time: isoTime(r.time) }));
    records.sort((a, b) => (a.time ?? '').localeCompare(b.time ?? ''));
    let skipped = 0;
    for (const { r, time } of records) {
      const title = str(r.title) ?? '';
      if (!time || !PROMPT.test(title)) {
        skipped++;
        continue;
      }
      const turns = days.get(time.slice(0, 10)) ?? [];
      turns.push({ role: 'user', kind: 'conversation', text: title.replace(PROMPT, ''), timestamp: time });
      const answer = (Array.isArray(r.safeHtmlItem) ? r.safeHtmlItem.filter(isRecord) : []).map((h) => htmlText(str(h.html) ?? '')).join('\n\n');
      if (answer) turns.push({ role: 'assistant', kind: 'conversation', text: answer, timestamp: time });
      days.set(time.slice(0, 10), turns);
    }
    if (skipped) ctx.logger.info(`${file}: ${skipped} activity records that are not prompts skipped`);
    return [...days].map(([day, turns]) =>
      buildSession({ source: 'gemini-takeout', nativeId: day, filename: basename(file), file, size: read.info.size, day, turns }, read.info.mtime),
    );
  },
};
