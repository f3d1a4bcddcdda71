import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import { fileHistoryResponseSchema } from '../../core/contracts.js';
import { answer, ok } from '../respond.js';

export function registerFileHistory(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'file_history',
    {
      title: 'Sessions that touched a file',
      description:
        'Before changing a file, call this to learn which past agent sessions read, wrote, edited, deleted or ran commands on it, and why: ' +
        'each session (newest first) with its turns, the kind of touch, the user request behind it and, for edits, the text written. ' +
        'With `lines` ("40-80" or "42"), says which session wrote those lines as they are on disk now (the latest agent edit that still matches), ' +
        'or that no agent edit matches them. Read-only. Open a turn with read_session, a session with get_session.',
      inputSchema: {
        path: z.string().min(1).max(4096).describe('The file: absolute, or relative to the working folder of this server.'),
        lines: z.string().max(40).optional().describe('Lines to attribute, 1-based: "42" or "40-80".'),
        limit: z.number().int().min(1).max(1000).optional().describe('Sessions to return, newest first (default 20; `total` says how many touched it).'),
        since: z.string().max(40).optional().describe('Only sessions active on or after this date (YYYY-MM-DD).'),
      },
      outputSchema: fileHistoryResponseSchema.shape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        // (a relative path is the agent's folder's: in-folder.ts)
        return ok(await engine.fileHistory({ path: args.path, lines: args.lines, limit: args.limit, since: args.since }));
      }),
  );
}
