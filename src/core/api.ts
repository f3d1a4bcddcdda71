/** The response shapes every front end returns: CodeArchitect's seed shapes, plus our own fields. */
import type { Role, SourceId, Turn, TurnKind } from './model.js';

export interface SearchOptions {
  date?: string;
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  source?: string;
  project?: string;
  role?: Role;
  /** Only matches in turns of this kind (conversation, file, diff, note, tool, thinking). */
  kind?: TurnKind;
}

export interface SearchResult {
  id: string;
  source: SourceId;
  project?: string;
  branch?: string;
  filename: string;
  topic: string;
  /** ISO timestamp of the session's start. */
  date: string;
  file: string;
  size: number;
  relevanceScore: number;
  matchedSnippets: string[];
  /** The turn (a docid for reading) each snippet came from, in the order of `matchedSnippets`. */
  snippetTurnIds: string[];
  /** Per snippet, the [start, end) character ranges of `matchedSnippets[i]` that matched the query. */
  snippetHighlights: [number, number][][];
  /** The ranges of `topic` that matched the query. */
  topicHighlights: [number, number][];
  matchCount: number;
  /** The tool deleted its transcript; this session comes from the archive. */
  sourceDeleted?: boolean;
}

export interface SearchResponse {
  success: true;
  results: SearchResult[];
  count: number;
  query: string;
}

export interface SessionInfo {
  id: string;
  source: SourceId;
  project?: string;
  filename: string;
  topic: string;
  date: string;
  file: string;
  size: number;
  turns: number;
  sourceDeleted?: boolean;
}

export interface ListResponse {
  success: true;
  sessions: SessionInfo[];
  count: number;
  format: 'json' | 'toon';
}

export interface Message {
  role: Role;
  kind: TurnKind;
  content: string;
}

export interface GetResponse {
  success: true;
  session: {
    id: string;
    source: SourceId;
    project?: string;
    branch?: string;
    filename: string;
    topic: string;
    date: string;
    file: string;
    /** Markdown in `json` format; the TOON encoding of `messages` in `toon` format. */
    content: string;
    messages: Message[];
    format: 'json' | 'toon';
  };
}

export interface ReadResponse {
  found: boolean;
  docid: string;
  total_bytes: number;
  offset: number;
  returned_bytes: number;
  next_offset: number | null;
  text: string;
}

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
}
