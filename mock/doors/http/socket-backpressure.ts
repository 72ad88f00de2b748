/**
 * What a socket's client owes the door and takes from it: pipelined requests are answered in
 * order at any depth with backpressure (the door stops reading a socket past `maxPipelined`
 * waiting answers), a client that takes none of its answers is held back and then closed, and a
 * connection is closed with a reset while answers still wait for it. The HTTP door (http-server.ts)
 * calls in here for every request; the translation between Node and the core stays there.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { DoorLimits } from './client-errors.ts';
import { connectionKey, readKernelSendQueues, type SendQueues } from './kernel-send-queues.ts';

/**
 * Closes a connection: with a reset while answers still wait for the client (in Node's buffer or
 * the kernel's), else with a FIN. A FIN queues behind those answers, so a client that never
 * reads would not learn of it, and would keep its socket for as long as the kernel goes on
 * probing its closed receive window (minutes).
 */
export function closeConnection(socket: Socket, queues = readKernelSendQueues()): void {
  if (progressOf(socket, queues).waiting > 0) socket.resetAndDestroy();
  else socket.destroy();
}

interface SocketWatch {
  /** When the socket last had nothing waiting for the client, or was last seen taking bytes. */
  since: number;
  /** Bytes the client has taken so far (see `taken`). */
  taken: number;
}

/** Per socket: requests whose answers are not sent yet, and those not even started. */
interface Backlog {
  waiting: number;
  readonly deferred: (() => void)[];
  /** Started requests whose bodies are still arriving: the socket must be read for them. */
  receiving: number;
  /** `bytesWritten` when the kernel was last asked about this socket between sweeps. */
  checkedAt: number;
}

/** Bytes waiting for a pipelining client that took nothing since the last sweep: it is idle. */
const IDLE_BACKLOG_BYTES = 64 * 1024;

/**
 * Bytes of answers waiting for the client (in Node's buffer, plus the kernel's unacknowledged
 * send queue when known) and bytes the client has taken: the kernel acknowledged them, or
 * without the kernel's word, Node handed them to the kernel.
 */
function progressOf(socket: Socket, queues: SendQueues | undefined) {
  const unsent = socket.writableLength;
  const handedOver = socket.bytesWritten - unsent;
  const key = connectionKey(socket.localPort ?? 0, socket.remotePort ?? 0);
  const queued = queues?.get(key);
  if (queued === undefined || !Number.isFinite(queued))
    return { waiting: unsent, taken: handedOver };
  return { waiting: unsent + queued, taken: handedOver - queued };
}

/**
 * One door's backpressure: what it knows of each of its sockets (their backlogs, their clients'
 * progress, which pipeline and which are idle), kept by the door rather than module-wide.
 */
export class SocketBackpressure {
  readonly #watches = new WeakMap<Socket, SocketWatch>();
  readonly #backlogs = new WeakMap<Socket, Backlog>();
  /** Sockets that have had two requests waiting at once: the sweep asks the kernel about them. */
  readonly #pipelining = new WeakSet<Socket>();
  /** Pipelining sockets whose client took nothing lately: not read until it takes something. */
  readonly #idle = new WeakSet<Socket>();

  /**
   * Pipelined requests are answered at any depth, in order (Node writes the answers in request
   * order whenever they are ready): no connection is closed for how many requests it has waiting.
   * Backpressure instead: past `maxPipelined` waiting requests the door stops reading the socket
   * and starts no further answer until an earlier one is sent, then reads on once half are sent.
   * Node reads up to 64 KiB at a time, so a few hundred small requests may arrive past the mark;
   * they wait as parsed requests, not as answers, and nothing more is read until the backlog is
   * down to half: memory per connection is bounded whatever the client sends. A client that never
   * reads is closed by the sweep.
   *
   * Counts a request in on its socket: true when it may start now, else the caller hands its
   * start to `defer` (a request that starts at once, nearly all, costs no closure).
   */
  enter(socket: Socket, res: ServerResponse, limits: DoorLimits): boolean {
    const own = this.#backlogOf(socket, limits);
    own.waiting += 1;
    if (own.waiting > 1) this.#pipelining.add(socket);
    // 'close' comes once; `on` spares the wrapper `once` makes.
    res.on('close', () => this.#closed(socket, own, limits));
    return own.waiting <= limits.maxPipelined;
  }

  /** Holds back a request `enter` refused to start until earlier answers are sent. */
  defer(socket: Socket, limits: DoorLimits, start: () => void): void {
    const own = this.#backlogOf(socket, limits);
    own.deferred.push(start);
    this.#holdBack(socket, own, limits);
  }

  /** An answer left (sent, or its connection closed): start the next one and read on. */
  #closed(socket: Socket, own: Backlog, limits: DoorLimits): void {
    own.waiting -= 1;
    // A deep pipeline: between sweeps, ask the kernel every IDLE_BACKLOG_BYTES handed over
    // whether the client takes them, so one that never reads is held back after a few hundred
    // KiB of answers rather than after the megabytes the kernel would buffer in a second.
    if (this.#pipelining.has(socket) && socket.bytesWritten - own.checkedAt >= IDLE_BACKLOG_BYTES) {
      own.checkedAt = socket.bytesWritten;
      this.#watchSocket(socket, readKernelSendQueues(), limits, Date.now());
    }
    if (!this.#idle.has(socket)) own.deferred.shift()?.();
    const below = own.deferred.length === 0 && own.waiting < limits.maxPipelined / 2;
    if (below && !this.#idle.has(socket) && socket.isPaused()) socket.resume();
  }

  /**
   * Whether the door stops reading the socket: over the mark, or its client takes nothing; but
   * never while a started request's body is still arriving, since that body is what comes next on
   * the socket (TCP keeps the order), and the request could never finish.
   */
  #holdBack(socket: Socket, backlog: Backlog, limits: DoorLimits): void {
    const over = backlog.deferred.length > 0 || backlog.waiting >= limits.maxPipelined;
    if ((over || this.#idle.has(socket)) && backlog.receiving === 0) socket.pause();
  }

  #backlogOf(socket: Socket, limits: DoorLimits): Backlog {
    const known = this.#backlogs.get(socket);
    if (known !== undefined) return known;
    const created: Backlog = { waiting: 0, deferred: [], receiving: 0, checkedAt: 0 };
    this.#backlogs.set(socket, created);
    // Node resumes a socket on its own (reading a request body resumes it, as does a drain):
    // while the door holds it back, pause it again before the next read.
    socket.on('resume', () => this.#holdBack(socket, created, limits));
    return created;
  }

  /** Marks a started request's body as arriving; call the result once it has arrived. */
  receivingBody(socket: Socket, limits: DoorLimits): () => void {
    const backlog = this.#backlogOf(socket, limits);
    backlog.receiving += 1;
    if (socket.isPaused()) socket.resume();
    return () => {
      backlog.receiving -= 1;
      this.#holdBack(socket, backlog, limits);
    };
  }

  /** Starts deferred answers until `maxPipelined` are under way again. */
  #startDeferred(socket: Socket, limits: DoorLimits): void {
    const backlog = this.#backlogs.get(socket);
    if (backlog === undefined) return;
    while (
      backlog.deferred.length > 0 &&
      backlog.waiting - backlog.deferred.length < limits.maxPipelined
    )
      backlog.deferred.shift()?.();
  }

  /**
   * Closes sockets whose client has taken none of the answers waiting for it for `stallTimeout`:
   * a client that pipelines and never reads, or stopped reading.
   */
  sweepStalled(sockets: Set<Socket>, limits: DoorLimits, now: number): void {
    let asKernel = false;
    for (const socket of sockets) asKernel ||= this.#pipelining.has(socket);
    const queues = asKernel ? readKernelSendQueues() : undefined;
    for (const socket of sockets) this.#watchSocket(socket, queues, limits, now);
  }

  /**
   * One look at a socket: taking again clears it, taking nothing past `stallTimeout` closes it,
   * and a pipelining client that takes nothing of a backlog is held back (idle).
   */
  #watchSocket(
    socket: Socket,
    queues: SendQueues | undefined,
    limits: DoorLimits,
    now: number,
  ): void {
    const { waiting, taken } = progressOf(socket, queues);
    const watch = this.#watches.get(socket);
    if (waiting === 0 || watch === undefined || taken > watch.taken) {
      this.#watches.set(socket, { since: now, taken });
      // Taking again: answer and read on (the resume guard in `#backlogOf` keeps it paused if over
      // the mark).
      if (this.#idle.delete(socket)) {
        this.#startDeferred(socket, limits);
        socket.resume();
      }
      return;
    }
    if (now - watch.since > limits.stallTimeout) socket.resetAndDestroy();
    else if (
      !this.#idle.has(socket) &&
      this.#pipelining.has(socket) &&
      (waiting >= IDLE_BACKLOG_BYTES || now - watch.since >= 2 * limits.connectionsCheckingInterval)
    ) {
      // A pipelining client took none of the answers waiting for it since the last sweep, with
      // more than an answer or two waiting, or over two sweeps: read no more requests from it and
      // start no more answers until it does, so a client that never reads stops costing work
      // long before it is closed (the kernel would otherwise take megabytes of answers).
      this.#idle.add(socket);
      this.#holdBack(socket, this.#backlogOf(socket, limits), limits);
    }
  }
}
