/** A server that accepts connections and closes each one at once, before reading a byte. */
import { type BadServer, startBadNetServer } from './bad-server.ts';

/** Starts a closing server. */
export function startClosingServer(): Promise<BadServer> {
  return startBadNetServer((socket) => socket.destroy());
}
