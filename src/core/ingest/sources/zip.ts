/**
 * One file out of a zip archive (the form ChatGPT's, Claude.ai's and Google's exports arrive in), read with yauzl:
 * the central directory is read from the end of the file and only the wanted entry is inflated, so a Takeout archive
 * of many gigabytes (photos and all, zip64) costs the size of the one entry. Nothing is extracted to disk.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import yauzl from 'yauzl';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** The first entry whose name `wanted` accepts, or undefined; an entry larger than `maxBytes` is refused. */
export function readZipEntry(file: string, wanted: (name: string) => boolean, maxBytes: number): Promise<ZipEntry | undefined> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip archive'));
      let done = false;
      const finish = (value: ZipEntry | undefined, error?: Error): void => {
        if (done) return;
        done = true;
        zip.close();
        if (error) reject(error);
        else resolve(value);
      };
      zip.on('error', (e: Error) => finish(undefined, e));
      zip.on('end', () => finish(undefined));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/') || !wanted(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > maxBytes)
          return finish(undefined, new Error(`${entry.fileName} is ${entry.uncompressedSize} bytes, over the ${maxBytes}-byte limit`));
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return finish(undefined, e ?? new Error(`${entry.fileName}: unreadable`));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', (se: Error) => finish(undefined, se));
          stream.on('end', () => finish({ name: entry.fileName, data: Buffer.concat(chunks) }));
        });
      });
      zip.readEntry();
    });
  });
}

/** The names of a zip archive's entries (for telling which export it is). */
export function zipEntryNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip archive'));
      const names: string[] = [];
      zip.on('error', reject);
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

/** A JSON document inside a zip archive (the first entry `wanted` accepts), with the archive's own file facts. */
export async function readZippedJson(
  file: string,
  wanted: (name: string) => boolean,
  maxBytes: number,
): Promise<{ doc: unknown; info: Stats; entry: string } | undefined> {
  const info = await stat(file);
  const entry = await readZipEntry(file, wanted, maxBytes);
  return entry && { doc: JSON.parse(entry.data.toString('utf8')) as unknown, info, entry: entry.name };
}
