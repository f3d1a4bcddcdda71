/** The line that says an answer is partial: small, so that the CLI's answers load no output format to say it. */
import { grouped } from './digits.js';

/** One line saying an answer covers only what is indexed so far (empty once everything is). */
export function indexingLine(value: unknown): string {
  return loadLine(value) + embeddingsLine(value);
}

/** While the user's own model embeds the sessions, or cannot: how far it is. */
function embeddingsLine(value: unknown): string {
  const e = (value as { embeddings?: { status: string; model: string; sessionsDone: number; sessionsTotal: number; error?: string } } | null)?.embeddings;
  if (!e || e.status === 'ready') return '';
  if (e.status === 'failed') return `your embedding model cannot be used (${e.error ?? 'see the log'}): ranked without it\n`;
  return `your embedding model is embedding sessions: ${grouped(e.sessionsDone)} of ${grouped(e.sessionsTotal)}; meaning ranks with those done\n`;
}

function loadLine(value: unknown): string {
  const indexing = (value as { indexing?: { filesDone: number; filesTotal: number; complete: boolean; stopped?: string } } | null)?.indexing;
  if (!indexing || indexing.complete) return '';
  if (indexing.stopped) return `indexing stopped: ${indexing.stopped}; results may be incomplete\n`;
  if (!indexing.filesTotal) return 'still indexing: looking for transcript files; results may be incomplete\n';
  return `still indexing: ${grouped(indexing.filesDone)} of ${grouped(indexing.filesTotal)} transcript files, newest first; results may be incomplete\n`;
}
