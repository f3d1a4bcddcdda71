/**
 * Amp: one JSON document per thread, `${AMP_DATA_DIR:-~/.local/share/amp}/threads/T-<id>.json`, rewritten whole:
 * `{id, created (epoch ms), title, env.initial.trees[{displayName, uri}], messages[{role, content[]}]}` where content
 * blocks are `text`, `thinking`, `tool_use {id, name, input}` and `tool_result` (`toolUseID` with `run.result` /
 * `run.error`, or the Anthropic shape `tool_use_id` with `content`).
 */
import { basename } from 'node:path';
import { buildSession, hasConversation, latestTime, type RawTurn } from './build.js';
import { blockTurns, toolKinds } from './content-blocks.js';
import { isRecord, isoTime, readJsonDocument, str } from './line-files.js';
import { pathFromFileUri } from './locations.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const toolKind = toolKinds(['Read', 'read_file', 'Grep', 'glob', 'list_directory'], ['edit_file', 'create_file', 'Edit', 'Write', 'apply_patch', 'undo_edit']);

export const ampSource: SourceAdapter = {
  id: 'amp',
  label: 'Amp',
  defaultRoots: DEFAULT_ROOTS.amp,
  accepts: (file) => /^T-[\w-]+\.json$/.test(basename(file)),
  async readFile(file, _root, ctx) {
    const read = await readJsonDocument(file, ctx.logger);
    if (!read) return [];
    const { doc, info } = read;
    if (!isRecord(doc) || !Array.isArray(doc.messages)) throw new Error('not an Amp thread (expected an object with messages)');
    const names = new Map<string, string>();
    const turns: RawTurn[] = [];
    let updated: string | undefined;
    for (const m of doc.messages.filter(isRecord)) {
      if (m.role !== 'user' && m.role !== 'assistant') continue;
      const timestamp = isoTime(isRecord(m.usage) ? m.usage.timestamp : undefined) ?? isoTime(m.timestamp);
      if (timestamp) updated = timestamp;
      turns.push(...blockTurns(m.role, m.content, names, toolKind, timestamp));
    }
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    // a thread's traces (agent runs, tool calls) say when its last work ended
    const meta = isRecord(doc.meta) ? doc.meta : {};
    for (const trace of Array.isArray(meta.traces) ? meta.traces.filter(isRecord) : [])
      updated = latestTime(updated, isoTime(trace.endTime) ?? isoTime(trace.startTime));
    const env = isRecord(doc.env) && isRecord(doc.env.initial) ? doc.env.initial : {};
    const tree = Array.isArray(env.trees) && isRecord(env.trees[0]) ? env.trees[0] : {};
    const id = str(doc.id) ?? basename(file, '.json');
    return [
      buildSession(
        {
          source: 'amp',
          nativeId: id,
          topic: str(doc.title),
          filename: id,
          file,
          size: info.size,
          created: typeof doc.created === 'number' ? new Date(doc.created).toISOString() : isoTime(doc.created),
          updated,
          project: pathFromFileUri(str(tree.uri) ?? '') ?? str(tree.displayName),
          turns,
        },
        info.mtime,
      ),
    ];
  },
};
