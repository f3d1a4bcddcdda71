/** What every source adapter provides. Adapters only read; they never write a source file. */
import type { ParsedFiles } from './line-files.js';
import type { Logger } from '../../log.js';
import type { ListedFolder } from '../walk.js';
import type { ParsedSession, Session, SourceId } from '../../model.js';

export interface SourceContext {
  logger: Logger;
  /** Environment used to find default locations (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, ...). */
  env: NodeJS.ProcessEnv;
  /**
   * The file is being read again because it changed while we run: append-only formats keep its parsed records here,
   * the library's own, so the next append is parsed from the last complete line on (line-files.ts `readJsonRecords`).
   */
  live?: ParsedFiles;
  /**
   * The library's current copy of a session, for fix-ups that need what other files said: a file read again alone
   * (it changed, or its archive entry was damaged) keeps a title that another file's records gave it.
   */
  previous?: (id: string) => Session | undefined;
  /**
   * What cross-file fix-ups carry from one commit of a load to the next (a load commits a large folder in parts):
   * one map per load, each adapter keeping its own key. Absent when a file is read alone.
   */
  carry?: Map<string, unknown>;
}

export interface SourceAdapter {
  id: SourceId;
  label: string;
  /** Folders searched when the user gives none. */
  defaultRoots(env: NodeJS.ProcessEnv): string[];
  /** Whether a file under a root is a transcript of this source; `folder`: its folder's names, where a walk just listed them. */
  accepts(file: string, root: string, folder?: ListedFolder): boolean;
  /** Reads one transcript file into zero or more sessions. Bad lines are logged and skipped, never thrown. */
  readFile(file: string, root: string, ctx: SourceContext): Promise<ParsedSession[]>;
  /** Cross-file fix-ups once a root has been read (e.g. titles recorded in another file). */
  finalize?(sessions: ParsedSession[], roots: string[], ctx: SourceContext): Promise<void>;
  /**
   * The file that takes this one's place when it is deleted (Codex compresses an idle rollout to `.jsonl.zst` and
   * deletes the plain file): its sessions are read from there instead of being marked deleted.
   */
  successor?(file: string): string;
}
