/** A transcript file's state on disk: what tells a snapshot's manifest whether the file changed since. */
import { stat } from 'node:fs/promises';

export interface FileState {
  file: string;
  size: number;
  mtimeMs: number;
  /** Inode (file identity): a file replaced by another of the same size and time is still read again. */
  ino: number;
}

/** Stats files a batch at a time; files that vanished since they were listed are left out. */
export async function statFiles(files: string[], batch = 64): Promise<FileState[]> {
  const out: FileState[] = [];
  for (let i = 0; i < files.length; i += batch) {
    const infos = await Promise.all(files.slice(i, i + batch).map((f) => stat(f).then((s) => ({ file: f, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino }), () => undefined)));
    for (const info of infos) if (info) out.push(info);
  }
  return out;
}
