/**
 * Factory Droid: `~/.factory/sessions/<project folder>/<id>.jsonl` (`FACTORY_HOME` moves `~/.factory`), append-only,
 * beside a `<id>.settings.json` of model and token counts (not read). Records: `session_start {id, title, cwd}` and
 * `message {id, timestamp, message{role, content}}` whose content is a string or Anthropic-style blocks (`text`,
 * `thinking`, `tool_use`, `tool_result`). Other record types are skipped.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { buildSession, hasConversation, type RawTurn } from './build.js';
import { blockTurns, toolKinds } from './content-blocks.js';
import { isRecord, isoTime, readJsonRecords, str } from './line-files.js';
import type { SourceAdapter } from './types.js';
import { DEFAULT_ROOTS } from './default-roots.js';

const toolKind = toolKinds(['Read', 'LS', 'Grep', 'Glob'], ['Edit', 'MultiEdit', 'Create', 'Write', 'ApplyPatch']);

export const droidSource: SourceAdapter = {
  id: 'droid',
  label: 'Factory Droid',
  defaultRoots: DEFAULT_ROOTS.droid,
  accepts: (file) => file.endsWith('.jsonl'),
  async readFile(file, _root, ctx) {
    const info = await stat(file);
    const turns: RawTurn[] = [];
    const names = new Map<string, string>();
    let id = basename(file, '.jsonl');
    let topic: string | undefined;
    let project: string | undefined;
    await readJsonRecords(
      file,
      ctx.logger,
      (record, line) => {
        if (record.type === 'session_start') {
          id = str(record.id) ?? id;
          topic = str(record.title)?.trim() || topic;
          project = str(record.cwd) ?? project;
        } else if (record.type === 'message' && isRecord(record.message)) {
          const role = record.message.role;
          if (role === 'user' || role === 'assistant')
            turns.push(...blockTurns(role, record.message.content, names, toolKind, isoTime(record.timestamp), line));
        }
      },
      true,
      ctx.live,
    );
    if (!hasConversation(turns)) {
      ctx.logger.info(`${file}: no conversation turns, not indexed`);
      return [];
    }
    return [buildSession({ source: 'droid', nativeId: id, filename: id, topic, file, size: info.size, project, turns }, info.mtime)];
  },
};
