/** zod fields shared by several tools. */
import { z } from 'zod';
import { ROLES, SOURCE_IDS, TURN_KINDS } from '../core/model.js';

export const MAX_LIMIT = 1000;

export const dateField = (what: string) => z.string().max(10).optional().describe(`${what} (YYYY-MM-DD). Matches sessions active on any day in range.`);
export const sourceField = z
  .enum(SOURCE_IDS)
  .optional()
  .describe(`Only sessions from one tool: ${SOURCE_IDS.join(', ')}.`);
export const projectField = z
  .string()
  .max(4096)
  .optional()
  .describe('Only sessions whose workspace folder is this absolute path or inside it (worktrees and sub-folders included).');
export const roleField = z
  .enum(ROLES as [string, ...string[]])
  .optional()
  .describe('Only count matches in turns of this role.');
export const kindField = z.enum(TURN_KINDS as [string, ...string[]]);

export const searchResultSchema = z.object({
  id: z.string(),
  source: z.string(),
  project: z.string().optional(),
  branch: z.string().optional(),
  filename: z.string(),
  topic: z.string(),
  date: z.string(),
  file: z.string(),
  size: z.number(),
  relevanceScore: z.number(),
  matchedSnippets: z.array(z.string()),
  snippetTurnIds: z.array(z.string()),
  snippetHighlights: z.array(z.array(z.tuple([z.number(), z.number()]))),
  topicHighlights: z.array(z.tuple([z.number(), z.number()])),
  matchCount: z.number(),
  sourceDeleted: z.boolean().optional(),
});

export const sessionInfoSchema = z.object({
  id: z.string(),
  source: z.string(),
  project: z.string().optional(),
  filename: z.string(),
  topic: z.string(),
  date: z.string(),
  file: z.string(),
  size: z.number(),
  turns: z.number(),
  sourceDeleted: z.boolean().optional(),
});
