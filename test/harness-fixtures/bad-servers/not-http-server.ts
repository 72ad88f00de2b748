/** A server that does not speak HTTP: it answers every request with a line of another protocol. */
import { type BadServer, startBadNetServer } from './bad-server.ts';

/** Starts a server that answers like an SSH daemon. */
export function startNotHttpServer(): Promise<BadServer> {
  return startBadNetServer((socket) => {
    socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
  });
}
