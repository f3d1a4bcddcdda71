/**
 * Claude.ai's data export (imported with `session-search import`): `conversations.json`, an array of
 * `{uuid, name, created_at, updated_at, chat_messages[{uuid, sender: human | assistant, text, content[], created_at,
 * attachments[{file_name, extracted_content}]}]}`. Content blocks: text, thinking, tool_use, tool_result.
 */
import type { RawTurn } from './build.js';
import { conversationsExportSource } from './conversations-export.js';
import { isRecord, isoTime, str } from './line-files.js';

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isRecord)
    .map((b) => str(b.text) ?? '')
    .filter(Boolean)
    .join('\n');
}

export function claudeAiTurns(conversation: Record<string, unknown>): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const m of Array.isArray(conversation.chat_messages) ? conversation.chat_messages.filter(isRecord) : []) {
    const timestamp = isoTime(m.created_at);
    const role = m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : undefined;
    if (!role) continue;
    const blocks = Array.isArray(m.content) ? m.content.filter(isRecord) : [];
    if (!blocks.length) turns.push({ role, kind: 'conversation', text: str(m.text) ?? '', timestamp });
    for (const b of blocks) {
      if (b.type === 'text') turns.push({ role, kind: 'conversation', text: str(b.text) ?? '', timestamp });
      else if (b.type === 'thinking') turns.push({ role: 'assistant', kind: 'thinking', text: str(b.thinking) ?? '', timestamp });
      else if (b.type === 'tool_use') {
        const name = str(b.name) ?? 'tool';
        turns.push({ role: 'assistant', kind: 'tool', tool: name, text: `${name} ${JSON.stringify(b.input ?? {})}`, timestamp });
      } else if (b.type === 'tool_result') turns.push({ role: 'tool', kind: 'tool', tool: str(b.name) ?? 'tool', text: blockText(b.content), timestamp });
    }
    for (const a of Array.isArray(m.attachments) ? m.attachments.filter(isRecord) : []) {
      const body = str(a.extracted_content);
      if (body) turns.push({ role: 'user', kind: 'file', tool: str(a.file_name) ?? 'attachment', text: body, timestamp });
    }
  }
  return turns;
}

/** Whether parsed JSON is a Claude.ai export: conversations with chat messages. */
export const isClaudeAiExport = (doc: unknown): doc is Record<string, unknown>[] =>
  Array.isArray(doc) && isRecord(doc[0]) && Array.isArray(doc[0].chat_messages);

export const claudeAiSource = conversationsExportSource({
  id: 'claude-ai',
  label: 'Claude.ai (export)',
  isExport: isClaudeAiExport,
  conversation(c) {
    const id = str(c.uuid);
    return id
      ? { nativeId: id, topic: str(c.name) || undefined, created: isoTime(c.created_at), updated: isoTime(c.updated_at), turns: claudeAiTurns(c) }
      : undefined;
  },
});
