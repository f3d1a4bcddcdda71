/** `store_session`: a conversation written in CodeArchitect's layout under the first CodeArchitect root, indexed at once. */
import { realpath } from 'node:fs/promises';
import { SessionSearchError } from '../errors.js';
import { codeArchitectDefaultRoot } from '../ingest/sources/default-roots.js';
import { storeCodeArchitectSession, type StoredMessage } from '../store/codearchitect-store.js';
import type { SessionCatalog } from './catalog.js';
import type { Loader } from './loader.js';
import type { LibraryOptions } from './options.js';
import { makePrivateDir } from '../store/private.js';

export interface StoreInput {
  messages: StoredMessage[];
  topic?: string;
  projectDir?: string;
}

export async function storeConversation(options: LibraryOptions, loader: Loader, catalog: SessionCatalog, input: StoreInput, now = new Date()) {
  if (!input.messages.length) throw new SessionSearchError('INVALID_ARGUMENT', 'conversation is empty: give the text or at least one message.');
  const configured = options.roots.find((r) => r.source === 'codearchitect')?.path ?? codeArchitectDefaultRoot(options.env ?? process.env);
  await makePrivateDir(configured);
  const root = await realpath(configured);
  if (!loader.roots.some((r) => r.source === 'codearchitect' && r.path === root)) loader.roots.push({ source: 'codearchitect', path: root });
  const written = await storeCodeArchitectSession(root, input, now);
  await loader.reloadFile(written.fullPath);
  return { ...written, id: catalog.byFile.get(written.fullPath)?.ids[0] };
}
