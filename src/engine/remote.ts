/**
 * The engine as its client uses it once connected (client.ts connects): the `Engine` facade over the socket, a request
 * the connection failed under asked again of the next engine (found or started), notifications and sessions kept
 * across a restart.
 */
import type { Socket } from 'node:net';
import { ErrorCodes, ResponseError, type MessageConnection, type RequestType } from 'vscode-jsonrpc/node';
import { SessionSearchError, type ErrorCode } from '../core/errors.js';
import type { Engine } from './api.js';
import {
  EngineFileHistoryRequest,
  EngineGetRequest,
  EngineExportRequest,
  EngineInfoRequest,
  EngineSourcesRequest,
  EngineListRequest,
  EnginePreferencesRequest,
  EngineReadRequest,
  EngineSearchContextRequest,
  EngineSearchRequest,
  EngineStatusRequest,
  EngineStoreRequest,
  EngineTagRequest,
  EngineUserTagsRequest,
  EngineUpdatePreferencesRequest,
  type EngineErrorData,
  type HelloResult,
  type TeamRef,
} from './protocol.js';

export interface Connected {
  connection: MessageConnection;
  socket: Socket;
  hello: HelloResult;
  /** Rejects when the socket closes: a request pending then is not answered by this engine. */
  closed: Promise<never>;
}

/** How many times a request the connection failed under is asked again (of the next engine). */
const RETRIES = 3;

/** A pause; `unref`'d, it does not keep the process alive (a deadline raced against an answer). */
export const sleep = (ms: number, unref = false): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref();
  });

/** An error the engine answered with, as the error the library would have thrown here. */
/** vscode-jsonrpc's codes for a request the connection itself failed, not the engine. */
const CONNECTION_LOST = new Set<number>([ErrorCodes.MessageWriteError, ErrorCodes.PendingResponseRejected, ErrorCodes.ConnectionInactive]);

function localError(err: unknown): unknown {
  if (err instanceof ResponseError) {
    const code = (err.data as EngineErrorData | undefined)?.code;
    return new SessionSearchError((code ?? 'UNKNOWN_ERROR') as ErrorCode, err.message);
  }
  return err;
}

/** One connection to an engine, as a session kept over it sees it (src/mcp/relay.ts); `id` tells one from the next. */
export interface EngineLink {
  id: number;
  request(method: string, params: unknown): Promise<unknown>;
  notify(method: string, params: unknown): Promise<void>;
}

/** The engine as a client sees it: the facade, and the window's requests and notifications relayed by method. */
export interface RemoteEngine extends Engine {
  /** A request of src/protocol.ts, asked of the engine as the window asked it. */
  request(method: string, params: unknown): Promise<unknown>;
  /** Notifications of src/protocol.ts the engine sends (from this engine and the next one, after a restart). */
  onNotification(method: string, handler: (params: unknown) => void): void;
  /**
   * Runs `open` on this connection and on each next one (after a restart) before anything else is sent there: what a
   * session kept in the engine needs opened again.
   */
  onConnect(open: (link: EngineLink) => Promise<void>): void;
  /** The connection in use, once `onConnect`'s openers have run on it (rejects when no engine can be reached). */
  link(): Promise<EngineLink>;
}

export function remoteEngine(
  first: Connected,
  reconnect: () => Promise<Connected | { reason: string }>,
  asked: { complete?: boolean; team?: TeamRef },
): RemoteEngine {
  const { complete, team } = asked;
  let current: Promise<Connected> = Promise.resolve(first);
  const notifications = new Map<string, (params: unknown) => void>();
  const openers: ((link: EngineLink) => Promise<void>)[] = [];
  const links = new WeakMap<Connected, EngineLink>();
  let linked = 0;
  const linkOf = (c: Connected): EngineLink => {
    let link = links.get(c);
    if (!link) {
      link = {
        id: ++linked,
        request: (method, params) => c.connection.sendRequest(method, params),
        notify: (method, params) => c.connection.sendNotification(method, params),
      };
      links.set(c, link);
    }
    return link;
  };
  const listen = (c: Connected): void => {
    for (const [method, handler] of notifications) c.connection.onNotification(method, handler);
  };
  // the engine went away (a crash, a hand-over): the next request starts or finds the next one
  const renew = (): void => {
    current = reconnect().then(async (next) => {
      if ('reason' in next) throw new SessionSearchError('READ_ERROR', `the engine went away: ${next.reason}`);
      watch(next);
      for (const open of openers) await open(linkOf(next));
      return next;
    });
    current.catch(() => undefined);
  };
  const watch = (c: Connected): void => {
    listen(c);
    c.socket.once('close', renew);
  };
  watch(first);
  // a request the connection failed under is asked again of the engine found or started next, a few times: an engine
  // that dies is noticed by its socket's end, its close, or a refused write, in an order a loaded machine varies
  const send = async <R>(ask: (c: MessageConnection) => Promise<R>, retries = RETRIES): Promise<R> => {
    let c: Connected | undefined;
    try {
      c = await current;
      return await Promise.race([ask(c.connection), c.closed]);
    } catch (err) {
      // an answer of the engine (an error it gave) is final; a write the connection refused, or a request it dropped
      // closing, is asked again
      const lost = !(err instanceof ResponseError) || CONNECTION_LOST.has(err.code);
      if (!lost || err instanceof SessionSearchError || retries <= 0) throw localError(err);
      if (c) {
        // once it is closed (and the next engine is being found), after a moment
        c.socket.destroy();
        await c.closed.catch(() => undefined);
      } else renew(); // finding the next engine failed under a dying one's socket: look again
      await sleep(100);
      return send(ask, retries - 1);
    }
  };
  const call = <P, R>(type: RequestType<P, R, void>, params: P, retry = true): Promise<R> =>
    send((c) => c.sendRequest(type, params as never), retry ? RETRIES : 0);
  return {
    request: (method, params) => send((c) => c.sendRequest(method, params)),
    onNotification: (method, handler) => {
      notifications.set(method, handler);
      void current.then((c) => c.connection.onNotification(method, handler)).catch(() => undefined);
    },
    onConnect: (open) => {
      openers.push(open);
      current = current.then(async (c) => {
        await open(linkOf(c));
        return c;
      });
      current.catch(() => undefined);
    },
    link: () => current.then(linkOf),
    where: { kind: 'engine', pid: first.hello.pid, version: first.hello.version },
    search: (query, options) => call(EngineSearchRequest, { query, options, complete, team }),
    searchContext: (query, options) => call(EngineSearchContextRequest, { query, options, complete, team }),
    get: (name, format) => call(EngineGetRequest, { name, format, team }),
    list: (options) => call(EngineListRequest, { options, complete }),
    info: (name) => call(EngineInfoRequest, { name, complete }),
    sources: (roots) => call(EngineSourcesRequest, { roots, complete }),
    export: (name, format, options) => call(EngineExportRequest, { name, format, options, complete }),
    fileHistory: (query) => call(EngineFileHistoryRequest, { query, complete }),
    read: (docid, offset) => call(EngineReadRequest, { docid, offset, team }),
    // a conversation is stored once: not asked again when the connection closes under it
    store: (input, now) => call(EngineStoreRequest, { input, now }, false),
    tag: (id, tags) => call(EngineTagRequest, { id, tags }),
    untag: (id, tags) => call(EngineTagRequest, { id, tags, remove: true }),
    userTags: () => call(EngineUserTagsRequest, {}),
    preferences: (project) => call(EnginePreferencesRequest, { project }),
    updatePreferences: (changes) => call(EngineUpdatePreferencesRequest, { changes }),
    status: async () => (await current).connection.sendRequest(EngineStatusRequest),
    close: async () => {
      const c = await current.catch(() => undefined);
      if (!c) return;
      c.socket.removeAllListeners('close');
      c.connection.dispose();
      c.socket.end();
    },
  };
}
