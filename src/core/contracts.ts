/**
 * The answers every front end returns, declared once with zod: CodeArchitect's seed shapes plus our own fields. The
 * MCP server gives these schemas as its tools' output schemas; the engine's types are inferred from them, so what
 * the tools promise and what the engine returns cannot drift apart.
 */
import { z } from 'zod';
import { ROLES, SOURCE_IDS, TURN_KINDS, type Role, type Turn, type TurnKind, BLOCK_TYPES, type BlockType } from './model.js';

const range = z.tuple([z.number().int(), z.number().int()]);

export interface SearchOptions {
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  source?: string;
  project?: string;
  /** `repo` (default): `project` and every git worktree of its repository; `exact`: that folder (and inside it) only. */
  projectScope?: 'repo' | 'exact';
  /** Only sessions recorded on this git branch (exactly as the tool recorded it). */
  branch?: string;
  role?: Role;
  /** Only matches in turns of this kind (conversation, file, diff, note, tool, thinking). */
  kind?: TurnKind;
  /** lexical: the words as typed (and their forms); semantic: by meaning only; hybrid (default): both, fused. */
  mode?: SearchMode;
  /** Only sessions carrying any of these tags (given by a person, or derived: topic, source, project folder, branch), more of them first. */
  tags?: string[];
  /** With `tags`: only sessions carrying every one of them. */
  allTags?: boolean;
  /** workspace: the answer also groups matching turns by workspace (the archive's search view). */
  groupBy?: 'workspace';
  /** The most characters of JSON the results take (an MCP answer's size): the rest are counted in `matched`, not built. */
  maxChars?: number;
  /** With groupBy: the longest the workspace view reads (ms); past it, the workspaces read by then, and a note. */
  maxMs?: number;
}

export { SEARCH_MODES, type SearchMode } from './model.js';
import { SEARCH_MODES, type SearchMode } from './model.js';
import { TOUCH_KINDS, type TouchKind } from './files/touches.js';
import { failedWorkspaceSchema, workspaceGroupSchema } from './contracts-workspaces.js';
export * from './contracts-workspaces.js';

/** How far indexing has got, in answers given while it runs (absent once everything is indexed). */
export const indexingSchema = z
  .object({
    filesDone: z.number().describe('Transcript files indexed so far.'),
    filesTotal: z.number().describe('Transcript files to index.'),
    bytesDone: z.number(),
    bytesTotal: z.number(),
    complete: z.boolean().describe('false: results may be incomplete; newest sessions are indexed first.'),
    stopped: z
      .string()
      .optional()
      .describe('Why indexing stopped before the end (memory ran short) and what the user can do; the answer covers what was read.'),
  })
  .describe('Present while the history is still being indexed: the answer covers what is indexed so far.');
export type IndexingState = z.infer<typeof indexingSchema>;

/** Present when the data folder cannot be kept (read-only, full, unwritable): what happened and what to do. */
export const storageSchema = z
  .object({
    problem: z.enum(['read-only', 'full', 'unwritable']),
    detail: z.string().describe('What could not be written, and the system error.'),
    advice: z.string().describe('What it means for answers, and what the user can do.'),
  })
  .describe('The data folder cannot be written: answers are right, but the index lives in memory only; tell the user.');
export type StorageProblem = z.infer<typeof storageSchema>;

/** How far the user's own embedding model has got, in answers given while it embeds (absent once done, or with no model). */
export const embeddingsSchema = z
  .object({
    status: z.enum(['starting', 'embedding', 'ready', 'failed']).describe('failed: see error; embedding is tried again later.'),
    model: z.string().describe('The model the vectors come from.'),
    sessionsDone: z.number().describe('Sessions embedded so far (the others are ranked by words and the learned model).'),
    sessionsTotal: z.number(),
    error: z.string().optional(),
  })
  .describe("Present while the user's embedding model is still embedding sessions, or cannot be used.");
export type EmbeddingsState = z.infer<typeof embeddingsSchema>;

export const searchResultSchema = z.object({
  id: z.string().describe('Session id (`<source>:<native id>`): pass it to get_session.'),
  source: z.enum(SOURCE_IDS).describe('The tool that wrote the session.'),
  project: z.string().optional().describe('Workspace folder the session ran in.'),
  branch: z.string().optional().describe('Git branch, when the tool records it.'),
  filename: z.string().describe('Name of the transcript (or session folder).'),
  topic: z.string().describe('Session title.'),
  date: z.string().describe("ISO timestamp of the session's start."),
  file: z.string().describe('Path of the transcript file.'),
  size: z.number().describe('Bytes of the transcript.'),
  relevanceScore: z
    .number()
    .describe(
      'The 0-1 score results are sorted by (then newest first). Lexical: the share of the query it holds, topic x3 > content x2 > tool messages x1; hybrid: the fused rank of the words, what was asked and meaning.',
    ),
  matchedSnippets: z.array(z.string()).describe('Up to 3 snippets around the matches.'),
  snippetTurnIds: z.array(z.string()).describe('The turn (a docid for read_session) each snippet came from.'),
  snippetHighlights: z.array(z.array(range)).describe('Per snippet, the [start, end) character ranges that matched.'),
  topicHighlights: z.array(range).describe('The [start, end) ranges of the topic that matched.'),
  matchCount: z.number().describe('How many times the query terms occur in the session (0: found by meaning, see foundBy).'),
  matchedTerms: z
    .array(z.string())
    .optional()
    .describe('The query words the session holds, as searched (a word with its forms, an identifier whole, two words written as one).'),
  foundBy: z.literal('meaning').optional().describe('Present when the session holds none of the query words: the semantic leg found it by what it is about.'),
  sourceDeleted: z.boolean().optional().describe('The tool deleted its transcript; the session comes from the archive.'),
  parentId: z.string().optional().describe('A sub-agent session: the session that started it (get_session it for the whole task).'),
  resumeCommand: z.string().optional().describe("The tool's command that reopens the session (run it in `project`), where the tool has one."),
  tags: z.array(z.string()).optional().describe('Tags a person gave the session, then its topics, source, project folder and branch.'),
  owner: z.string().optional().describe("Team archive: the database role whose session it is (absent for this machine's own sessions)."),
  machine: z.string().optional().describe('Team archive: the machine it was pushed from.'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchResponseSchema = z.object({
  success: z.literal(true),
  results: z.array(searchResultSchema).describe('Sessions, best first (then newest).'),
  count: z.number().describe('Number of results.'),
  matched: z
    .number()
    .optional()
    .describe(
      'Where more sessions matched than the answer holds (its limit, or what one answer holds; see note): how many matched. Results are the best `count` of them.',
    ),
  query: z.string().describe('The query as given.'),
  note: z
    .string()
    .optional()
    .describe(
      'Said when the answer is not what was asked: empty because the query is only common words or only says what to leave out, ranked by words where meaning was asked for (no model yet, or exact text), or cut to what one answer holds (see matched) or to the workspaces read in time (groupBy).',
    ),
  alsoMatched: z
    .array(z.string())
    .optional()
    .describe('Words matched in place of query words that no session holds (near spellings: "websoket" → "websocket").'),
  mode: z
    .enum(SEARCH_MODES)
    .optional()
    .describe('How the results were ranked: lexical while the semantic model is still being learned, or for exact queries (phrases, flags, paths).'),
  indexing: indexingSchema.optional(),
  storage: storageSchema.optional(),
  embeddings: embeddingsSchema.optional(),
  workspaces: z.array(workspaceGroupSchema).optional().describe('With groupBy "workspace": the matches by workspace, most matches first.'),
  workspacesSearched: z.number().optional().describe('With groupBy "workspace": how many workspaces were searched.'),
  turnsMatched: z.number().optional().describe('With groupBy "workspace": how many turns matched, in every workspace.'),
  failedWorkspaces: z
    .array(failedWorkspaceSchema)
    .optional()
    .describe(
      'With groupBy "workspace": workspaces that could not be searched (their stored turns are damaged and being read again); ask again to retry them.',
    ),
  teamNotice: z.string().optional().describe('A team archive is configured but could not answer: why. The results are local only.'),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const sessionInfoSchema = z.object({
  id: z.string().describe('Session id.'),
  source: z.enum(SOURCE_IDS).describe('The tool that wrote the session.'),
  project: z.string().optional().describe('Workspace folder.'),
  filename: z.string().describe('Name of the transcript (or session folder).'),
  topic: z.string().describe('Session title.'),
  date: z.string().describe("ISO timestamp of the session's start."),
  file: z.string().describe('Path of the transcript file.'),
  size: z.number().describe('Bytes of the transcript.'),
  turns: z.number().describe('Number of turns.'),
  sourceDeleted: z.boolean().optional().describe('The transcript is gone; the session comes from the archive.'),
  parentId: z.string().optional().describe('A sub-agent session: the session that started it (get_session it for the whole task).'),
  resumeCommand: z.string().optional().describe("The tool's command that reopens the session (run it in `project`), where the tool has one."),
  tags: z.array(z.string()).optional().describe('Tags a person gave the session, then its topics, source, project folder and branch.'),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const listResponseSchema = z.object({
  success: z.literal(true),
  sessions: z.array(sessionInfoSchema).describe('Sessions, newest first.'),
  count: z.number().describe('Number of sessions listed.'),
  matched: z
    .number()
    .optional()
    .describe('Where the limit (or what one answer holds) left sessions out: how many pass the filters (sessions are the newest `count`).'),
  format: z.enum(['json', 'toon']).describe('The text form chosen for the answer.'),
  indexing: indexingSchema.optional(),
  storage: storageSchema.optional(),
});
export type ListResponse = z.infer<typeof listResponseSchema>;

export const messageSchema = z.object({
  role: z.enum(ROLES as [Role, ...Role[]]).describe('Who spoke.'),
  kind: z.enum(TURN_KINDS as [TurnKind, ...TurnKind[]]).describe('conversation, file, diff, note, tool or thinking.'),
  content: z.string().describe('The turn, masked.'),
});
export type Message = z.infer<typeof messageSchema>;

export const sessionContentSchema = z.object({
  id: z.string(),
  source: z.enum(SOURCE_IDS),
  project: z.string().optional(),
  branch: z.string().optional(),
  filename: z.string(),
  topic: z.string(),
  date: z.string(),
  file: z.string(),
  content: z.string().describe('Markdown in `json` format; the TOON encoding of `messages` in `toon` format.'),
  messages: z.array(messageSchema).describe('Every turn, in order.'),
  format: z.enum(['json', 'toon']),
  resumeCommand: z.string().optional().describe("The tool's command that reopens the session (run it in `project`), where the tool has one."),
  sourceDeleted: z.boolean().optional().describe('The tool deleted its transcript: the session comes from the archive, and the tool can no longer reopen it.'),
  parentId: z.string().optional().describe('A sub-agent session: the session that started it (get_session it for the whole task).'),
  children: z.array(z.string()).optional().describe('Sub-agent sessions this session started, oldest first.'),
  cut: z
    .string()
    .optional()
    .describe('The session is too long for one answer: messages and content hold its first turns; how to read the rest (read_session pages it).'),
  unreadLines: z
    .object({ count: z.number(), reasons: z.array(z.string()) })
    .optional()
    .describe('Lines of the transcript that could not be read: how many, and why (the first few, by line). The rest of the session is here.'),
});

export const getResponseSchema = z.object({ success: z.literal(true), session: sessionContentSchema });
export type GetResponse = z.infer<typeof getResponseSchema>;

export const readResponseSchema = z.object({
  found: z.boolean().describe('Whether the docid names a session or turn.'),
  docid: z.string(),
  total_bytes: z.number().describe('UTF-8 bytes of the whole text.'),
  total_chars: z.number().describe('Characters (UTF-16 code units) of the whole text.'),
  offset: z.number().describe('Where this page starts, in UTF-8 bytes.'),
  returned_bytes: z.number().describe('UTF-8 bytes in this page.'),
  next_offset: z.number().nullable().describe('Where the next page starts; null at the end.'),
  text: z.string().describe('The page, exactly as stored (masked).'),
});
export type ReadResponse = z.infer<typeof readResponseSchema>;

export const contextBlockSchema = z.object({
  blockId: z.string().describe('The turn (a docid for read_session).'),
  sessionId: z.string(),
  sessionName: z.string(),
  type: z
    .enum(BLOCK_TYPES as [BlockType, ...BlockType[]])
    .describe('The kind of turn, or decision: a prompt or reply where something was settled (snippet: what).'),
  score: z.number().describe("0-1: the share of the query's information the block holds."),
  snippet: z.string(),
  tags: z.array(z.string()).describe("The session's tags (given by a person, its topics, source, project folder, branch), then the block's kind."),
  createdAt: z.string(),
});
export type ContextBlock = z.infer<typeof contextBlockSchema>;

export const contextResponseSchema = z.object({
  results: z.array(contextBlockSchema).describe('Blocks, best first.'),
  totalMatches: z.number(),
  searchTime: z.number().describe('Milliseconds.'),
  indexing: indexingSchema.optional(),
  storage: storageSchema.optional(),
  embeddings: embeddingsSchema.optional(),
  teamNotice: z.string().optional().describe('A team archive is configured but could not answer: why. The blocks are local only.'),
});
export type ContextResponse = z.infer<typeof contextResponseSchema>;

export interface ErrorResponse {
  success: false;
  error: string;
  message: string;
}

/** A window of a session's turns; `highlights[i]` are the ranges of `turns[i].text` that match the query asked with. */
export interface TurnWindow {
  turns: Turn[];
  highlights: [number, number][][];
  total: number;
  /** What a reader says above the turns: the transcript is gone from its tool, the session is a sub-agent of another. */
  notes?: string[];
}

export const tagResponseSchema = z.object({
  success: z.literal(true),
  id: z.string().describe('The session tagged.'),
  tags: z.array(z.string()).describe('The tags the person gave it (normalised: lower case, spaces as -).'),
  derived: z.array(z.string()).describe('The tags it carries by itself: its topics, source, project folder and branch.'),
});
export type TagResponse = z.infer<typeof tagResponseSchema>;

export const preferencesResponseSchema = z.object({
  preferences: z
    .record(z.string(), z.string())
    .describe(
      'By category (coding_style, formatting, frameworks, testing, architecture, answers (how answers should be: length, tone, form, examples), communication, …): what was learned, or the value set by hand.',
    ),
  evidence: z
    .record(
      z.string(),
      z.array(
        z.object({
          text: z.string().describe('What was said or found.'),
          sessions: z.number().describe('How many sessions show it.'),
          turns: z.array(z.string()).describe('Turns it came from (docids for read_session).'),
        }),
      ),
    )
    .describe('What each learned category rests on, most sessions first.'),
  manual: z.array(z.string()).describe('Categories whose value was set by hand (update_preferences); they win over what was learned.'),
  extractedFrom: z.number().describe('Sessions the learned preferences come from.'),
  lastUpdated: z.string().describe('ISO time of the newest session or manual change they reflect.'),
  indexing: indexingSchema.optional(),
  storage: storageSchema.optional(),
});
export type PreferencesResponse = z.infer<typeof preferencesResponseSchema>;

/** file_history: the sessions that touched a file, and with `lines` which one wrote them (answer/file-history.ts). */
const fileTouchSchema = z.object({
  turn: z.string().describe('The turn (a docid for read_session) that touched the file.'),
  kind: z.enum(TOUCH_KINDS as [TouchKind, ...TouchKind[]]).describe('read, write (created or replaced), edit, delete, or run (a command named it).'),
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
        touches: z.array(fileTouchSchema),
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
  storage: storageSchema.optional(),
});
export type FileHistoryResponse = z.infer<typeof fileHistoryResponseSchema>;

/** A session as the tree shows it: list metadata plus what the tooltip needs. */
export interface TreeSession extends SessionInfo {
  branch?: string;
  firstPrompt?: string;
  updated: string;
  nativeId: string;
  /** Lines of its transcript that could not be read (the log says which and why). */
  unreadLines?: number;
  /** The tags a person gave it. */
  userTags?: string[];
  /** Its topics (derived tags). */
  topics?: string[];
  /** A team archive session: whose it is and the machine it came from. */
  owner?: string;
  machine?: string;
}

/** The archive and the snapshot beside it, as the window's status shows them. */
export interface ArchiveSize {
  enabled: boolean;
  dir: string;
  bytes: number;
  entries: number;
  /** The index snapshot beside it. */
  snapshotBytes: number;
}
