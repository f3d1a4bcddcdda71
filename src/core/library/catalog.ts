/**
 * The session catalog: every session the library holds, the index over them, which file each came from (and that
 * file's state when read), and the title index built on first use. Adding, replacing and removing go through here so
 * the four never disagree.
 */
import { sourceById } from '../ingest/sources/registry.js';
import { existsSync } from 'node:fs';
import { SearchIndex } from '../index/engine.js';
import { TitleIndex } from '../index/title-index.js';
import type { FileState } from '../ingest/file-state.js';
import type { FileRead } from '../ingest/read-files.js';
import type { Logger } from '../log.js';
import type { ParsedSession, Session, Turn } from '../model.js';
import type { SourceRoot } from '../ingest/sources/registry.js';
import type { ManifestEntry } from '../store/snapshot.js';
import { isInside } from '../ingest/walk.js';
import { SemanticIndex } from '../semantic/semantic-index.js';
import type { MeaningLeg } from '../embed/leg.js';
import { FileIndex } from '../files/file-index.js';
import { WorktreeRoots } from '../answer/worktrees.js';
import type { SemanticData } from '../semantic/semantic-file.js';
import { INDEXED_CHARS_PER_TOOL_TURN, type KnownFile } from './options.js';
import { RestoredSessions, type RestoredRows } from './restored-sessions.js';

export class SessionCatalog {
  /** Restored sessions are made when first asked for (restored-sessions.ts). */
  readonly sessions = new RestoredSessions();
  /** Which sessions came from which file, under which root, and the file's state when read. */
  readonly byFile = new Map<string, KnownFile>();
  /** Replaced as a whole when a snapshot is restored, or when a restored one turns out damaged. */
  index = new SearchIndex();
  private titleIndex: TitleIndex | undefined;
  /** The semantic leg: a bag of words per session and, once learned, a vector. */
  readonly semantic: SemanticIndex;
  /** Sessions by the files they touched: built when first asked. */
  readonly files: FileIndex;
  /** Meaning from the user's own model, when one is configured (embed/leg.ts). */
  meaning: MeaningLeg | undefined;

  constructor(
    private readonly logger: Logger,
    /** With an archive, sessions whose transcript is gone stay (marked deleted); without one they leave. */
    private readonly keepsDeleted: boolean,
    /** Told after every change, so the snapshot is written again once things are quiet. */
    private readonly changed: () => void,
    semanticThreads = true,
    /** Told when a semantic model was learned: its file is written at once (small), not with the next snapshot. */
    learned: () => void = changed,
    worktrees: WorktreeRoots = new WorktreeRoots(),
    /** The files a session touched (a restored session's are read from the snapshot). */
    touchesOf?: (session: Session) => readonly string[] | undefined,
  ) {
    this.semantic = new SemanticIndex(logger, undefined, semanticThreads, learned);
    this.files = new FileIndex(() => this.sessions.values(), worktrees, process.platform, touchesOf);
  }

  /** Sessions by title words, for search-as-you-type: built on first use, start-up does not pay for it. */
  titles(): TitleIndex {
    if (!this.titleIndex) {
      this.titleIndex = new TitleIndex();
      for (const s of this.sessions.values()) this.titleIndex.add(s.id, s.topic);
    }
    return this.titleIndex;
  }

  add(session: ParsedSession): void {
    const existing = this.sessions.get(session.id);
    if (existing && existing.file !== session.file) {
      // A renamed or moved transcript takes its sessions along; two live files claiming one id keep the first, unless
      // the first is the new one's successor (a compressed copy) and the tool wrote the plain file again.
      const replaces = !session.sourceDeleted && sourceById(session.source)?.successor?.(session.file) === existing.file;
      if (!existing.sourceDeleted && existsSync(existing.file) && !replaces) {
        this.logger.warn(`${session.file}: session ${session.id} already read from ${existing.file}, kept the first`);
        return;
      }
      const old = this.byFile.get(existing.file);
      if (old) old.ids = old.ids.filter((id) => id !== session.id);
    }
    this.sessions.set(session.id, session);
    this.index.add(session.id, { topic: session.topic, ...indexedFields(session.turns) }, Date.parse(session.updated) || 0);
    this.titleIndex?.add(session.id, session.topic);
    this.semantic.add(session, session.turns);
    this.files.add(session);
    this.meaning?.add(session);
  }

  remove(id: string): void {
    this.sessions.delete(id);
    this.semantic.remove(id);
    this.files.remove(id);
    this.meaning?.remove(id);
    this.index.remove(id);
    this.titleIndex?.remove(id);
  }

  /** Replaces the sessions that came from one file. */
  replaceFile(read: Pick<FileRead, 'file' | 'sessions' | 'size' | 'mtimeMs' | 'ino' | 'entry'>, root: SourceRoot): void {
    const { file, sessions } = read;
    const previous = this.byFile.get(file)?.ids ?? [];
    const ids = sessions.map((s) => s.id);
    for (const id of previous) if (!ids.includes(id)) this.remove(id);
    for (const s of sessions) this.add(s);
    const kept = ids.filter((id) => this.sessions.get(id)?.file === file);
    this.byFile.set(file, { root, ids: kept, file, size: read.size, mtimeMs: read.mtimeMs, ino: read.ino, entry: read.entry });
    this.changed();
  }

  /** The source file is gone: with an archive its sessions stay, marked deleted; without one they leave the index. */
  markSourceDeleted(file: string): void {
    const entry = this.byFile.get(file);
    if (!entry) return;
    for (const id of entry.ids) {
      const s = this.sessions.get(id);
      if (!s || s.sourceDeleted) continue;
      if (this.keepsDeleted) s.sourceDeleted = true;
      else this.remove(id);
      this.changed();
    }
    if (!this.keepsDeleted) this.byFile.delete(file);
  }

  /** Takes over a restored snapshot; sessions of files `keep` refuses (roots no longer configured) are dropped. */
  adopt(
    restored: { index: SearchIndex; rows: RestoredRows; files: ManifestEntry[]; semantic?: SemanticData },
    keep: (f: ManifestEntry) => SourceRoot | undefined,
  ): void {
    this.index = restored.index;
    this.files.clear();
    const kept = new Set<string>();
    for (const f of restored.files) {
      const root = keep(f);
      if (!root) continue;
      this.byFile.set(f.file, { root, ids: f.ids, file: f.file, size: f.size, mtimeMs: f.mtimeMs, ino: f.ino, entry: f.entry });
      for (const id of f.ids) kept.add(id);
    }
    this.sessions.restore(restored.rows, (id) => kept.has(id) || (this.index.remove(id), false));
    for (const key of kept) if (!this.sessions.has(key)) this.index.remove(key);
    if (restored.semantic) this.semantic.fromData(restored.semantic, (id) => this.sessions.has(id));
  }

  /** Forgets every session and file and starts a new index (the next catch-up reads everything, through the archive). */
  reset(): void {
    this.index.close();
    this.index = new SearchIndex();
    this.sessions.clear();
    this.semantic.clear();
    this.files.clear();
    this.byFile.clear();
    this.titleIndex = undefined;
  }

  /** The file is as it was when last read (size, modification time, identity). */
  unchanged(state: FileState): boolean {
    const known = this.byFile.get(state.file);
    return known !== undefined && known.size === state.size && known.mtimeMs === state.mtimeMs && known.ino === state.ino;
  }

  /** Transcript files known under a folder (for a root that disappeared). */
  filesUnder(folder: string): string[] {
    return [...this.byFile.keys()].filter((f) => isInside(folder, f));
  }

  /** What a snapshot records of every file. */
  manifest(): ManifestEntry[] {
    return [...this.byFile.values()].map((k) => ({
      file: k.file,
      source: k.root.source,
      root: k.root.path,
      size: k.size,
      mtimeMs: k.mtimeMs,
      ino: k.ino,
      ids: [...k.ids],
      entry: k.entry,
    }));
  }
}

/** What the index holds of a session's turns: the conversation whole, every other turn's first part. */
export function indexedFields(turns: readonly Turn[]): { content: string[]; messages: string[] } {
  const content: string[] = [];
  const messages: string[] = [];
  for (const turn of turns) {
    if (turn.kind === 'conversation') content.push(turn.text);
    else messages.push(turn.text.length > INDEXED_CHARS_PER_TOOL_TURN ? turn.text.slice(0, INDEXED_CHARS_PER_TOOL_TURN) : turn.text);
  }
  return { content, messages };
}
