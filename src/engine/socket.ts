/** The engine's socket: a client connects to it (or learns that nothing listens); both sides speak JSON-RPC over it. */
import { connect, type Socket } from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

/** A connected socket, or undefined when nothing listens there (no file, a stale one, refused, too slow). */
export function connectSocket(path: string, timeoutMs = 2_000): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(undefined);
    });
  });
}

export async function canConnect(path: string): Promise<boolean> {
  const socket = await connectSocket(path, 1_000);
  socket?.destroy();
  return socket !== undefined;
}

/**
 * JSON-RPC over a socket. The reader's partial-message timer is off: it re-arms itself every 10 s for as long as a
 * message stays half-read (the other side gone mid-message), and disposing the connection does not stop it, so a command
 * whose engine went away mid-answer stayed alive with nothing to do, its work done (seen in CI: 10 min and counting).
 */
export function socketConnection(socket: Socket): MessageConnection {
  const reader = new SocketMessageReader(socket);
  reader.partialMessageTimeout = 0;
  return createMessageConnection(reader, new SocketMessageWriter(socket));
}
