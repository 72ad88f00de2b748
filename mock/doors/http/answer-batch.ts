/**
 * The door's answers, written together once per turn of the event loop instead of one by one as
 * each is ready. A write to a socket whose client sleeps wakes the client, and on these machines
 * a wake-up costs more than the write: under load a fake that answers one socket at a time lets
 * its client fall asleep between answers and pays a wake-up for nearly every one. libuv runs
 * `setImmediate` callbacks after it has read every socket that was ready, so the first answer of
 * a turn wakes the client and the rest find it awake. An answer waits at most for the requests
 * read in its own turn.
 *
 * What it buys, side by side with writing each answer on its socket as the core resolves it: a
 * good part of the door's CPU on every request under load, creates, lists and gets alike, and
 * the req/s that comes with it (bench/optimisations.md, "The structures built for the bench").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
// Node's own, not the global: a test that fakes timers must not hold the door's answers back.
import { setImmediate } from 'node:timers';
import type { Answer } from '../../base/messages/answer.ts';

/** Writes one answer; must not throw (its failures are its own to answer). */
export type WriteAnswer = (incoming: IncomingMessage, res: ServerResponse, answer: Answer) => void;

/** One door's answers of the current turn, written once libuv has read every ready socket. */
export class AnswerBatch {
  // Three arrays rather than an object per answer: a batch costs no allocation per request.
  readonly #incoming: IncomingMessage[] = [];
  readonly #responses: ServerResponse[] = [];
  readonly #answers: Answer[] = [];
  readonly #write: WriteAnswer;

  constructor(write: WriteAnswer) {
    this.#write = write;
  }

  /** Queues an answer for the end of this turn. */
  add(incoming: IncomingMessage, res: ServerResponse, answer: Answer): void {
    this.#incoming.push(incoming);
    this.#responses.push(res);
    if (this.#answers.push(answer) === 1) setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    const incoming = this.#incoming;
    const responses = this.#responses;
    const answers = this.#answers;
    // The length is read each time: an answer queued during the loop is written in it too.
    for (let i = 0; i < answers.length; i++)
      this.#write(
        incoming[i] as IncomingMessage,
        responses[i] as ServerResponse,
        answers[i] as Answer,
      );
    incoming.length = 0;
    responses.length = 0;
    answers.length = 0;
  };
}
