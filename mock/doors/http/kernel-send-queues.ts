/**
 * Bytes the kernel still holds for each TCP connection because the peer has not acknowledged
 * them (Linux: `tx_queue` of /proc/net/tcp and /proc/net/tcp6, which is write_seq - snd_una).
 *
 * Why the HTTP door asks: a client that pipelines and never reads stops acknowledging once its
 * receive buffer is full (about 128 KiB), but the server's own send buffer grows to 4 MiB
 * (`net.ipv4.tcp_wmem`) and goes on taking answers without a word, so Node's `writableLength`
 * stays 0 until megabytes of answers have been written (tens of seconds when 30 such clients
 * share the process). The acknowledged byte count stops moving at once, and that is what the
 * door watches. Where there is no /proc, the door falls back to Node's buffer alone.
 */
import { readFileSync } from 'node:fs';

/** Unacknowledged bytes by connection, keyed by `connectionKey`; undefined when not on Linux. */
export type SendQueues = ReadonlyMap<string, number>;

/** The key of a connection as this side sees it: its local port, then the peer's. */
export function connectionKey(localPort: number, remotePort: number): string {
  return `${localPort}>${remotePort}`;
}

/** Connection states that still carry data to the peer: ESTABLISHED and CLOSE_WAIT. */
const CARRYING = new Set(['01', '08']);

function portOf(address: string): number {
  return Number.parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
}

/**
 * Reads the send queues of every TCP connection of this network namespace. A key two
 * connections share (the same port pair from two peer addresses) maps to NaN: not known.
 */
export function readKernelSendQueues(): SendQueues | undefined {
  const queues = new Map<string, number>();
  let readable = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    readable = true;
    const lines = text.split('\n');
    for (let i = 1; i < lines.length; i++) {
      // "  sl  local_address rem_address   st tx_queue:rx_queue ..."
      const fields = (lines[i] as string).trim().split(/\s+/);
      const [, local, remote, state, txRx] = fields;
      if (local === undefined || remote === undefined || txRx === undefined) continue;
      if (!CARRYING.has(state ?? '')) continue;
      const key = connectionKey(portOf(local), portOf(remote));
      const sendQueue = Number.parseInt(txRx.slice(0, txRx.indexOf(':')), 16);
      queues.set(key, queues.has(key) ? Number.NaN : sendQueue);
    }
  }
  return readable ? queues : undefined;
}
