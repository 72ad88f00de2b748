/**
 * Marks on answers that the doors and the client report read without a field on Answer: an
 * answer injected by chaos, and one whose connection must be dropped instead of answered.
 * WeakSets, so a mark lives exactly as long as its answer.
 */
import type { Answer } from '../core/answer.ts';

const injected = new WeakSet<Answer>();
const dropped = new WeakSet<Answer>();

/** Marks an answer as injected by chaos (and, with `drop`, as a connection to drop). */
export function markChaos(answer: Answer, drop = false): Answer {
  injected.add(answer);
  if (drop) dropped.add(answer);
  return answer;
}

/** Whether chaos injected this answer. */
export function isChaos(answer: Answer): boolean {
  return injected.has(answer);
}

/**
 * Whether the door must drop the connection instead of answering: the HTTP door closes the
 * socket, `fake.fetch` and the msw handlers fail the fetch as a network error.
 */
export function isDropped(answer: Answer): boolean {
  return dropped.has(answer);
}
