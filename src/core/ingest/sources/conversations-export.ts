/**
 * What ChatGPT's and Claude.ai's data exports share: `conversations.json`, one array of conversations, each of which
 * becomes a session; read as it is or straight from the export's zip. The adapters give the shape test and how one conversation reads.
 */
import { basename } from 'node:path';
import type { ParsedSession } from '../../model.js';
import { buildSession, type RawSession, type RawTurn } from './build.js';
import { isRecord, readJsonDocument } from './line-files.js';
import { readZippedJson } from './zip.js';
import type { SourceAdapter, SourceContext } from './types.js';

/** Exports hold years of chats in one file: a larger limit than a single session's document. */
const MAX_EXPORT_BYTES = 512 * 1024 * 1024;

export interface ConversationsExport {
  id: 'chatgpt' | 'claude-ai';
  label: string;
  /** Whether parsed JSON is this service's export. */
  isExport(doc: unknown): doc is Record<string, unknown>[];
  /** One conversation's id, title, dates and turns; undefined when it has no id. */
  conversation(c: Record<string, unknown>): (Pick<RawSession, 'nativeId' | 'topic' | 'created' | 'updated'> & { turns: RawTurn[] }) | undefined;
}

/** `conversations.json` itself, or the export's zip as the service sends it (the file is read from inside). */
export const isConversationsFile = (name: string): boolean => basename(name) === 'conversations.json';

async function readExport(spec: ConversationsExport, file: string, ctx: SourceContext): Promise<ParsedSession[]> {
  const read = file.endsWith('.zip')
    ? await readZippedJson(file, isConversationsFile, MAX_EXPORT_BYTES)
    : await readJsonDocument(file, ctx.logger, MAX_EXPORT_BYTES);
  if (!read) {
    if (file.endsWith('.zip')) ctx.logger.info(`${file}: no conversations.json inside, not indexed`);
    return [];
  }
  if (!spec.isExport(read.doc)) {
    ctx.logger.info(`${file}: not a ${spec.label}, not indexed`);
    return [];
  }
  const sessions: ParsedSession[] = [];
  for (const c of read.doc.filter(isRecord)) {
    const one = spec.conversation(c);
    if (!one || !one.turns.some((t) => t.role === 'user')) continue;
    sessions.push(buildSession({ source: spec.id, filename: one.nativeId, file, size: read.info.size, ...one }, read.info.mtime));
  }
  return sessions;
}

/** The adapter of a conversations export: no default folder (it is imported), every conversation a session. */
export function conversationsExportSource(spec: ConversationsExport): SourceAdapter {
  return {
    id: spec.id,
    label: spec.label,
    defaultRoots: () => [],
    accepts: (file) => isConversationsFile(file) || file.endsWith('.zip'),
    readFile: (file, _root, ctx) => readExport(spec, file, ctx),
  };
}
