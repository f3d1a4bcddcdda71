import { isAbsolute, resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import { indexingSchema } from '../../core/contracts.js';
import { TOUCH_KINDS } from '../../core/files/touches.js';
import { answer, ok } from '../respond.js';

const touchSchema = z.object({
  turn: z.string().describe('The turn (a docid for read_session) that touched the file.'),
  kind: z.enum(TOUCH_KINDS as [string, ...string[]]).describe('read, write (created or replaced), edit, delete, or run (a command named it).'),
  at: z.string().optional().describe('When, where the tool recorded it.'),
  hunk: z.string().optional().describe('For edits and writes: the start of the text written.'),
});

export const fileHistoryResponseSchema = z.object({
  success: z.literal(true),
  path: z.string().describe("The file, as the index keys it (a worktree's file is its repository's file)."),
  count: z.number().describe('Sessions returned.'),
  total: z.number().describe('Sessions that touched the file.'),
  sessions: z
    .array(
      z.object({
        id: z.string().describe('Session id: pass it to get_session.'),
        source: z.string(),
        topic: z.string(),
        project: z.string().optional(),
        date: z.string().describe('When the session was last active.'),
        touches: z.array(touchSchema),
        request: z.string().optional().describe("The user's request the first touch answered."),
      }),
    )
    .describe('Newest first.'),
  lines: z
    .object({
      from: z.number(),
      to: z.number(),
      segments: z
        .array(
          z.object({
            from: z.number(),
            to: z.number(),
            session: z
              .string()
              .optional()
              .describe('The session whose edit wrote these lines as they are now; absent: no agent edit matches (written by hand, or changed since).'),
            topic: z.string().optional(),
            turn: z.string().optional(),
            date: z.string().optional(),
            source: z.string().optional(),
            request: z.string().optional(),
            match: z.enum(['exact', 'whitespace']).optional(),
          }),
        )
        .describe('Runs of the asked lines, each with the edit that wrote it.'),
    })
    .optional(),
  indexing: indexingSchema.optional(),
});

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
        const path = isAbsolute(args.path) ? args.path : resolve(process.cwd(), args.path);
        return ok(await engine.fileHistory({ path, lines: args.lines, limit: args.limit, since: args.since }));
      }),
  );
}
