import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Engine } from '../../engine/api.js';
import { basename } from 'node:path';
import { messagesFromPlain, slugify } from '../../core/store/codearchitect-store.js';
import { answer, ok } from '../respond.js';

const message = z.object({ role: z.string().max(40).describe('user, assistant or system'), content: z.string().describe('The message text') });

export function registerStoreSession(server: McpServer, ready: Promise<Engine>): void {
  server.registerTool(
    'store_session',
    {
      title: 'Store a conversation',
      description:
        "Saves a conversation in CodeArchitect's layout (YYYY-MM-DD/<topic>/summary.md + full.md, default ~/.codearchitect/sessions) " +
        'so it can be searched later. Secrets and e-mail addresses are masked before writing. It is searchable immediately; returns the id and paths.',
      inputSchema: {
        conversation: z
          .union([z.string().max(50_000_000), z.array(message).max(100_000)])
          .describe('The conversation: plain text (with optional "User:" / "Assistant:" markers) or an array of messages.'),
        topic: z.string().max(200).optional().describe('Short topic; becomes the folder name (made unique). Default: from the first prompt.'),
        projectDir: z
          .string()
          .max(4096)
          .optional()
          .describe('The project folder the conversation was about: absolute, or relative to the working folder of this server.'),
        format: z.enum(['plain', 'messages']).optional().describe('How to read a text conversation: plain (default) or messages (a JSON array as text).'),
      },
      outputSchema: {
        success: z.boolean(),
        filename: z.string().describe('The session folder name: pass it to get_session({filename}).'),
        id: z.string().optional().describe('The session id in search results.'),
        topic: z.string(),
        date: z.string().describe('ISO timestamp of when it was stored.'),
        file: z.string().describe('Path of full.md.'),
        summaryFile: z.string(),
        fullFile: z.string(),
        message: z.string(),
        warning: z.string().optional().describe('Present when the topic folder existed that day and a new name was chosen.'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const engine = await ready;
        let messages;
        if (Array.isArray(args.conversation)) messages = args.conversation;
        else if (args.format === 'messages') messages = z.array(message).parse(JSON.parse(args.conversation));
        else messages = messagesFromPlain(args.conversation);
        const now = new Date();
        // (a relative projectDir is the agent's folder's: in-folder.ts)
        const stored = await engine.store({ messages, topic: args.topic, projectDir: args.projectDir }, now.toISOString());
        const filename = basename(stored.dir);
        const asked = args.topic !== undefined ? slugify(args.topic) : undefined;
        return ok(
          {
            success: true,
            filename,
            id: stored.id,
            topic: stored.topic,
            date: now.toISOString(),
            file: stored.fullPath,
            summaryFile: stored.summaryPath,
            fullFile: stored.fullPath,
            message: `Session stored as "${filename}": find it with search_session, read it with get_session({filename: "${filename}"}).`,
            ...(asked && asked !== filename ? { warning: `A session "${asked}" was already stored that day: this one is "${filename}".` } : {}),
          },
          'json',
        );
      }),
  );
}
