/**
 * ChatGPT's data export (imported with `session-search import`): `conversations.json`, an array of conversations
 * `{id | conversation_id, title, create_time, update_time (epoch seconds), mapping{node: {message, parent, children}},
 * current_node}`. A conversation is a tree (edits and regenerations branch it); the branch shown is the path from
 * `current_node` up to the root. Messages: `author.role` (user, assistant, system, tool), `content.content_type`
 * (text, multimodal_text, code, execution_output, thoughts, …) with `parts[]` or `text`.
 */
import type { RawTurn } from './build.js';
import { conversationsExportSource } from './conversations-export.js';
import { isRecord, str } from './line-files.js';

const seconds = (v: unknown): string | undefined => (typeof v === 'number' && v > 0 ? new Date(v * 1000).toISOString() : undefined);

function contentText(content: Record<string, unknown>): string {
  if (typeof content.text === 'string') return content.text;
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const thoughts = Array.isArray(content.thoughts) ? content.thoughts.filter(isRecord).map((t) => str(t.content) ?? '') : [];
  return [
    ...parts.map((p) => (typeof p === 'string' ? p : isRecord(p) ? (str(p.text) ?? (p.content_type === 'image_asset_pointer' ? '[image]' : '')) : '')),
    ...thoughts,
  ]
    .filter(Boolean)
    .join('\n');
}

/** The messages of the branch the conversation shows, oldest first. */
function branch(conversation: Record<string, unknown>): Record<string, unknown>[] {
  const mapping = isRecord(conversation.mapping) ? conversation.mapping : {};
  const nodes: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let id = str(conversation.current_node) ?? Object.keys(mapping).at(-1);
  while (id && !seen.has(id) && isRecord(mapping[id])) {
    seen.add(id);
    const node = mapping[id] as Record<string, unknown>;
    if (isRecord(node.message)) nodes.push(node.message);
    id = str(node.parent);
  }
  return nodes.reverse();
}

export function chatGptTurns(conversation: Record<string, unknown>): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const m of branch(conversation)) {
    const author = isRecord(m.author) ? m.author : {};
    const content = isRecord(m.content) ? m.content : {};
    const metadata = isRecord(m.metadata) ? m.metadata : {};
    const text = contentText(content);
    const timestamp = seconds(m.create_time);
    if (!text.trim() || metadata.is_visually_hidden_from_conversation) continue;
    const type = str(content.content_type);
    if (author.role === 'user') turns.push({ role: 'user', kind: 'conversation', text, timestamp });
    else if (author.role === 'assistant') {
      const kind = type === 'thoughts' || type === 'reasoning_recap' ? 'thinking' : type === 'code' ? 'tool' : 'conversation';
      turns.push({ role: 'assistant', kind, tool: kind === 'tool' ? (str(m.recipient) ?? 'code') : undefined, text, timestamp });
    } else if (author.role === 'tool') turns.push({ role: 'tool', kind: 'tool', tool: str(author.name) ?? 'tool', text, timestamp });
  }
  return turns;
}

/** Whether parsed JSON is a ChatGPT export: conversations with a message tree. */
export const isChatGptExport = (doc: unknown): doc is Record<string, unknown>[] => Array.isArray(doc) && isRecord(doc[0]) && isRecord(doc[0].mapping);

export const chatGptSource = conversationsExportSource({
  id: 'chatgpt',
  label: 'ChatGPT (export)',
  isExport: isChatGptExport,
  conversation(c) {
    const id = str(c.conversation_id) ?? str(c.id);
    return id ? { nativeId: id, topic: str(c.title), created: seconds(c.create_time), updated: seconds(c.update_time), turns: chatGptTurns(c) } : undefined;
  },
});
