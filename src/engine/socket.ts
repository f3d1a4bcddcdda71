/** The engine's socket from a client's side: connect, or learn that nothing listens. */
import { connect, type Socket } from 'node:net';

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
