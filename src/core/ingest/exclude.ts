/** Exclude patterns from settings: globs (`**`, `*`, `?`) matched against a file's path with forward slashes. */
import { escapeRegExp } from '../regexp.js';
import type { SourceAdapter } from './sources/types.js';
import type { ListedFolder } from './walk.js';

/** Whether a file under a root is read (`folder`: the names a walk just listed beside it). */
export type TranscriptTest = (adapter: SourceAdapter, file: string, root: string, folder?: ListedFolder) => boolean;

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += escapeRegExp(c);
  }
  // a pattern without a slash matches a name anywhere; one with a slash matches the path (or its tail)
  return glob.includes('/') ? new RegExp(`(^|/)${re}$`) : new RegExp(`(^|/)${re}(/|$)`);
}

/**
 * Whether a file under a root is read: its adapter recognises it and no exclude pattern names it. The one test, for the
 * library's reads and for the thread that walks the roots (ingest/scan-worker.ts).
 */
export function transcriptTest(patterns: string[] | undefined): TranscriptTest {
  const excluded = excluder(patterns);
  return (adapter, file, root, folder) => adapter.accepts(file, root, folder) && !excluded(file);
}

export function excluder(patterns: string[] | undefined): (path: string) => boolean {
  const compiled = (patterns ?? []).filter((p) => p.trim()).map(globToRegExp);
  if (!compiled.length) return () => false;
  return (path) => {
    const unix = path.replace(/\\/g, '/');
    return compiled.some((re) => re.test(unix));
  };
}
