/** zod fields shared by several tools. */
import { z } from 'zod';
import { ROLES, SOURCE_IDS, TURN_KINDS, BLOCK_TYPES } from '../core/model.js';
import { SEARCH_MODES } from '../core/contracts.js';

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
  .describe(
    'Only sessions whose workspace folder is this path or inside it (worktrees and sub-folders included): absolute, or relative to the working folder of this server (".": the project it runs in).',
  );
export const projectScopeField = z
  .enum(['repo', 'exact'])
  .optional()
  .describe('With project: repo (default) also finds the git worktrees of the same repository; exact only that folder.');
export const branchField = z.string().max(500).optional().describe('Only sessions recorded on this git branch.');
export const roleField = z
  .enum(ROLES as [string, ...string[]])
  .optional()
  .describe('Only count matches in turns of this role.');
export const kindField = z.enum(TURN_KINDS as [string, ...string[]]);
/** search_context's block types: the turn kinds and decision. */
export const blockTypeField = z.enum(BLOCK_TYPES as [string, ...string[]]);
export const modeField = z
  .enum(SEARCH_MODES)
  .optional()
  .describe(
    "hybrid (default): the words, what each session's user asked (in any form of the words) and their meaning, fused; lexical: the words as typed and their forms only; semantic: by meaning only (sessions that say it in other words). Exact queries (phrases, flags, paths, error messages) always run lexical.",
  );

/** Any positive number, capped at MAX_LIMIT and rounded down, as CodeArchitect's clients send it (no error for 5000). */
export const limitField = (what: string) =>
  z
    .number()
    .positive()
    .transform((n) => Math.max(1, Math.min(MAX_LIMIT, Math.floor(n))))
    .optional()
    .describe(`${what} Larger values are capped at ${MAX_LIMIT}.`);

/** The query: checked by the tool rather than the protocol, so that a call without one gets the seed's "Search query is required" in its result. */
export const queryField = (what: string) => z.string().max(2000).optional().describe(`Required. ${what}`);

/** Tags to filter by: all must be carried. */
export const tagsFilterField = z
  .array(z.string().max(200))
  .max(50)
  .optional()
  .describe(
    'Only sessions carrying any of these tags, those carrying more of them first: ones a person gave (tag_session) or derived (a topic such as database or testing, the source id, the project folder name, the branch). allTags: true for every one of them.',
  );

export const allTagsField = z.boolean().optional().describe('With tags: only what carries every one of the tags (default: any of them).');
/** Tags to add or remove. */
export const tagListField = z
  .array(z.string().max(200))
  .min(1)
  .max(100)
  .describe('Tags, e.g. ["postgres-migration", "decision"]: lower-cased, spaces become -, at most 50 characters, no "/" or control characters.');
/** The session a tag tool acts on. */
export const sessionNameField = z.string().max(4096).describe('The session: its id from search results (`<source>:<id>`), its native id or its file name.');
