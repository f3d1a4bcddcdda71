import { mkdtempSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCore, type LibraryCore, type LibraryOptions } from '../src/core/library/open.js';
import { MemoryLogger } from '../src/core/log.js';
import type { SourceRoot } from '../src/core/ingest/sources/registry.js';
import type { ParsedSession, Turn } from '../src/core/model.js';
import { completeSession, restoredHeader, type StoredHeader } from '../src/core/store/compact-header.js';
import type { SessionRows } from '../src/core/store/session-rows.js';
import type { ManifestEntry, StoredSession } from '../src/core/store/snapshot.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The real transcripts shared beside the repository; read-only. */
export const CORPUS = realpathSync(resolve(ROOT, '..', 'shared', 'corpus'));

export const corpusRoots: SourceRoot[] = [
  { source: 'codearchitect', path: join(CORPUS, 'codearchitect', 'sessions') },
  { source: 'claude-code', path: join(CORPUS, 'claude-code') },
  { source: 'codex', path: join(CORPUS, 'codex') },
];

export async function loadLibrary(roots: SourceRoot[]): Promise<{ library: LibraryCore; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const library = openCore({ roots, logger, env: {} });
  await library.load();
  return { library, logger };
}

const made: string[] = [];
let cleanupArmed = false;

/**
 * Ends the engine a test left serving `dir` (an MCP server, a command or a window started it, and it would stay for its
 * idle time): killed, as the folder is about to be removed. Only a process whose command line names the folder.
 */
function stopEngineOf(dir: string): void {
  try {
    const pid = Number(readFileSync(join(dir, 'engine', 'pid'), 'utf8'));
    if (pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dir)) process.kill(pid, 'SIGKILL');
  } catch {
    // no engine, or gone already (or no /proc: the engine leaves after its idle time)
  }
}

/**
 * A new empty folder, by its real path (the library reports real paths; /tmp may be a symlink). Removed when the test
 * file's process exits, so that thousands of runs do not fill the disk, with any engine still serving it.
 */
export function tempDir(prefix = 'session-search-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  if (!cleanupArmed) {
    cleanupArmed = true;
    process.on('exit', () => {
      for (const each of made) {
        stopEngineOf(each);
        try {
          rmSync(each, { recursive: true, force: true, maxRetries: 2 });
        } catch {
          // A child still writing there; the system's temporary-folder cleaning takes the rest.
        }
      }
    });
  }
  return dir;
}

/** Writes a CodeArchitect session folder the way CodeArchitect does (JSON block in full.md). */
export function writeCodeArchitect(root: string, day: string, topic: string, messages: { role: string; content: string }[], time = '12:00:00.000Z'): string {
  const dir = join(root, day, topic);
  mkdirSync(dir, { recursive: true });
  const full = `# ${topic} - Full Context\n\n**Date:** ${day}T${time}\n**Message Count:** ${messages.length}\n\n---\n\n## Full Conversation (JSON)\n\n\`\`\`json\n${JSON.stringify(messages, null, 2)}\n\`\`\`\n\n---\n`;
  writeFileSync(join(dir, 'full.md'), full);
  writeFileSync(join(dir, 'summary.md'), `# ${topic}\n\n**Date:** ${day}T${time}\n\n## Short Summary\n\nSummary of ${topic}.\n`);
  return dir;
}

export function writeFile(path: string, text: string | Uint8Array): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** The id of the i-th copy written by `writeSessionCopies`. */
export const copyId = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/**
 * A history of `copies` Claude Code sessions made from one real transcript of the sample (`ccviewer/sample-project/
 * <sample>.jsonl`), each under its own id (`copyId(i)`), spread over `projects` project folders; `edit` varies a copy's
 * text, `mtime` sets its file time (seconds). Returns the root to read.
 */
export function writeSessionCopies(
  sample: string,
  copies: number,
  projects: number,
  options: { edit?: (text: string, i: number) => string; mtime?: (i: number) => number } = {},
): string {
  const root = tempDir();
  const text = readFileSync(join(CORPUS, 'claude-code', 'ccviewer', 'sample-project', `${sample}.jsonl`), 'utf8');
  for (let i = 0; i < copies; i++) {
    const dir = join(root, `project-${i % projects}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${copyId(i)}.jsonl`);
    const copy = text.replaceAll(sample, copyId(i));
    writeFileSync(file, options.edit ? options.edit(copy, i) : copy);
    if (options.mtime) utimesSync(file, options.mtime(i), options.mtime(i));
  }
  return root;
}

/** The header of a snapshot file's bytes (its footer: header offset, length, CRC-32, magic), and where it starts. */
export function snapshotHeader(b: Buffer): { at: number; header: Record<string, unknown> } {
  const at = Number(b.readBigUInt64LE(b.length - 32));
  const length = Number(b.readBigUInt64LE(b.length - 24));
  return { at, header: JSON.parse(b.toString('utf8', at, at + length)) as Record<string, unknown> };
}

/** A parsed session of conversation turns (the user's prompts, each answered), for tests of what is derived from them. */
export function conversation(id: string, topic: string, prompts: string[], replies: string[] = []): ParsedSession {
  const turns: Turn[] = prompts.flatMap((text, i) => [
    { id: `${id}#${2 * i}`, role: 'user', kind: 'conversation', text },
    { id: `${id}#${2 * i + 1}`, role: 'assistant', kind: 'conversation', text: replies[i] ?? 'done' },
  ]);
  const day = '2026-11-01';
  return {
    id,
    source: 'codearchitect',
    nativeId: id,
    topic,
    filename: id,
    file: `/x/${id}`,
    size: 1,
    created: day,
    updated: day,
    firstDay: day,
    lastDay: day,
    turns,
  } as ParsedSession;
}

/** The inotify watches a process holds, as the kernel counts them (Linux: /proc/<pid>/fdinfo). */
export function inotifyWatches(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      n += (readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // (closed meanwhile)
    }
  }
  return n;
}

/** The libraries `openTracked` gave that are not closed yet. */
const tracked = new Set<LibraryCore>();

/** A library (not loaded) that `closeTracked` closes if its test leaves it open. */
export function openTracked(options: LibraryOptions): LibraryCore {
  const library = openCore(options);
  tracked.add(library);
  const close = library.close.bind(library);
  library.close = () => {
    tracked.delete(library);
    return close();
  };
  return library;
}

/**
 * Closes every library `openTracked` gave that its test left open (run after each test), so that none goes on
 * learning, writing or holding its snapshot file while the next test runs (a file left to the collector is closed
 * with a warning).
 */
export async function closeTracked(): Promise<void> {
  for (const library of [...tracked]) await library.close();
}

/**
 * What `compactHeader` (src/core/store/compact-header.ts) was given, from what it made, as a restore reads it (in
 * columns or as objects; a header of the layout before, written out, reads as it is): the reference the header's tests
 * hold it to.
 */
export function fullHeader(header: StoredHeader, rows?: SessionRows): { sessions: StoredSession[]; files: ManifestEntry[]; keys: (string | null)[] } {
  const { sessions, files, keys } = restoredHeader(header, rows);
  const full: StoredSession[] = [];
  for (let i = 0; i < sessions.count; i++) {
    const { at, entry } = sessions.turns(i);
    const firstPrompt = sessions.firstPrompt(i);
    full.push({
      ...(completeSession(sessions.meta(i), firstPrompt, files) as Omit<StoredSession, 'turnCount'>),
      turnCount: sessions.turnCount(i),
      ...(firstPrompt === undefined ? {} : { firstPrompt }),
      ...(entry !== undefined ? { archivedAt: { entry, at: at! } } : at ? { turnsAt: at } : {}),
    });
  }
  return { sessions: full, files, keys };
}

/** The rows of a snapshot's sessions (layout 10: store/session-rows.ts), read from its bytes; none in earlier layouts. */
export function snapshotRows(b: Buffer): SessionRows | undefined {
  const sections = snapshotHeader(b).header.sections as Record<string, [number, number]>;
  if (!sections.sessionRows) return undefined;
  const part = (name: string): Buffer => Buffer.from(b.subarray(sections[name][0], sections[name][0] + sections[name][1]));
  const starts = part('sessionRowStarts');
  return { text: part('sessionRows'), starts: Uint32Array.from({ length: starts.length / 4 }, (_, i) => starts.readUInt32LE(4 * i)) };
}

/** A snapshot's sessions, files and keys as `fullHeader` gives them, from the snapshot's bytes. */
export function snapshotSessions(b: Buffer): ReturnType<typeof fullHeader> {
  return fullHeader(snapshotHeader(b).header as unknown as StoredHeader, snapshotRows(b));
}

/** The files below `dir` this process holds open (read from /proc/self/fd). */
export function heldOpen(dir: string): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(join('/proc/self/fd', fd));
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(dir));
}
