/**
 * Cursor: chats live in SQLite key-value tables of `state.vscdb`. Old builds (≤0.42) keep everything in the workspace
 * database's `ItemTable` (`workbench.panel.aichat.view.aichat.chatdata` tabs with bubbles, and `composer.composerData`
 * with inline conversations); newer builds keep only composer ids there and the content in the global database's
 * `cursorDiskKV` (`composerData:<id>` headers, `bubbleId:<composer>:<bubble>` messages). Read through sql.js, read-only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Database } from 'sql.js';
import type { ParsedSession } from '../../model.js';
import { buildSession, type RawTurn } from './build.js';
import { pathFromFileUri } from './locations.js';
import { isRecord, isoTime, str } from './line-files.js';
import { asText, rows, tableNames, withDatabase } from './sqlite.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

type Json = Record<string, unknown>;

interface CursorChat {
  id: string;
  title?: string;
  created?: string;
  updated?: string;
  project?: string;
  turns: RawTurn[];
}

function json(value: unknown): unknown {
  try {
    return JSON.parse(asText(value) ?? 'null');
  } catch {
    return undefined;
  }
}

function itemValue(db: Database, key: string): unknown {
  return json(rows(db, 'SELECT value FROM ItemTable WHERE key = ?', [key])[0]?.value);
}

/** A bubble (old `type: "user" | "ai"` or new `type: 1 | 2`) as turns: text, thinking, tool call. */
export function bubbleTurns(b: Json): RawTurn[] {
  const user = b.type === 'user' || b.type === 1;
  const timestamp = isoTime(b.createdAt);
  const turns: RawTurn[] = [];
  if (isRecord(b.thinking) && str(b.thinking.text)) turns.push({ role: 'assistant', kind: 'thinking', text: str(b.thinking.text)!, timestamp });
  const text = str(b.text) ?? str(b.rawText);
  if (text) turns.push({ role: user ? 'user' : 'assistant', kind: 'conversation', text, timestamp });
  const tool = isRecord(b.toolFormerData) ? b.toolFormerData : undefined;
  if (tool) {
    const name = str(tool.name) ?? str(tool.tool) ?? 'tool';
    const kind = /read|list|search|grep|glob/i.test(name) ? 'file' : /edit|write|create|delete|apply/i.test(name) ? 'diff' : 'tool';
    turns.push({ role: 'assistant', kind, tool: name, text: `${name} ${str(tool.rawArgs) ?? JSON.stringify(tool.params ?? {})}`, timestamp });
    const result = typeof tool.result === 'string' ? tool.result : tool.result === undefined ? '' : JSON.stringify(tool.result);
    if (result) turns.push({ role: 'tool', kind, tool: name, text: result, timestamp });
  }
  return turns;
}

function oldChats(db: Database): CursorChat[] {
  const chats: CursorChat[] = [];
  const chatData = itemValue(db, 'workbench.panel.aichat.view.aichat.chatdata');
  for (const tab of isRecord(chatData) && Array.isArray(chatData.tabs) ? chatData.tabs.filter(isRecord) : []) {
    const turns = (Array.isArray(tab.bubbles) ? tab.bubbles.filter(isRecord) : []).flatMap(bubbleTurns);
    const when = isoTime(tab.lastSendTime);
    chats.push({ id: `chat-${str(tab.tabId) ?? chats.length}`, title: str(tab.chatTitle), created: when, updated: when, turns });
  }
  const composers = itemValue(db, 'composer.composerData');
  for (const c of isRecord(composers) && Array.isArray(composers.allComposers) ? composers.allComposers.filter(isRecord) : []) {
    const turns = (Array.isArray(c.conversation) ? c.conversation.filter(isRecord) : []).flatMap(bubbleTurns);
    chats.push({
      id: str(c.composerId) ?? `composer-${chats.length}`,
      title: str(c.name),
      created: isoTime(c.createdAt),
      updated: isoTime(c.lastUpdatedAt),
      turns,
    });
  }
  return chats;
}

function splitStorageChats(db: Database): CursorChat[] {
  if (!tableNames(db).has('cursorDiskKV')) return [];
  const chats: CursorChat[] = [];
  for (const row of rows(db, "SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%'")) {
    const c = json(row.value);
    if (!isRecord(c)) continue;
    const id = str(c.composerId) ?? String(row.key).slice('composerData:'.length);
    const headers = Array.isArray(c.fullConversationHeadersOnly) ? c.fullConversationHeadersOnly.filter(isRecord) : [];
    let bubbles: Json[] = Array.isArray(c.conversation) ? c.conversation.filter(isRecord) : [];
    if (!bubbles.length && headers.length) {
      const byId = new Map(
        rows(db, 'SELECT key, value FROM cursorDiskKV WHERE key LIKE ?', [`bubbleId:${id}:%`]).map((r) => [String(r.key).split(':')[2], json(r.value)]),
      );
      bubbles = headers.map((h) => byId.get(str(h.bubbleId) ?? '')).filter(isRecord); // headers may name bubbles whose rows are gone
    }
    const workspace = isRecord(c.workspaceIdentifier) && isRecord(c.workspaceIdentifier.uri) ? str(c.workspaceIdentifier.uri.fsPath) : undefined;
    chats.push({
      id,
      title: str(c.name),
      created: isoTime(c.createdAt),
      updated: isoTime(c.lastUpdatedAt),
      project: workspace,
      turns: bubbles.flatMap(bubbleTurns),
    });
  }
  return chats;
}

function workspaceFolder(dbFile: string): string | undefined {
  const meta = join(dirname(dbFile), 'workspace.json');
  if (!existsSync(meta)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(meta, 'utf8'));
    return isRecord(parsed) ? pathFromFileUri(str(parsed.folder) ?? str(parsed.workspace) ?? '') : undefined;
  } catch {
    return undefined;
  }
}

export const cursorSource: SourceAdapter = {
  id: 'cursor',
  label: 'Cursor',
  defaultRoots: DEFAULT_ROOTS.cursor,
  accepts: (file) => basename(file) === 'state.vscdb',
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const chats = await withDatabase(file, (db) => (tableNames(db).has('ItemTable') ? [...oldChats(db), ...splitStorageChats(db)] : splitStorageChats(db)));
    const project = workspaceFolder(file);
    const sessions: ParsedSession[] = [];
    for (const chat of chats) {
      if (!chat.turns.length) continue;
      sessions.push(
        buildSession(
          {
            source: 'cursor',
            nativeId: chat.id,
            topic: chat.title,
            filename: chat.id,
            file,
            size: info.size,
            created: chat.created,
            updated: chat.updated,
            project: chat.project ?? project,
            turns: chat.turns,
          },
          info.mtime,
        ),
      );
    }
    if (!sessions.length) ctx.logger.info(`${file}: no chats with turns, not indexed`);
    return sessions;
  },
};
