/**
 * Marks on answers that the doors and the client report read without a field on Answer: an
 * answer injected by QA (forced through the control surface, or drawn by chaos), and one whose
 * connection must be dropped instead of answered. A WeakMap, so a mark lives exactly as long as
 * its answer.
 */
import type { Answer } from '../../base/messages/answer.ts';

/** Who injected an answer. */
export type InjectedBy = 'forced' | 'chaos';

interface Mark {
  readonly by: InjectedBy;
  readonly drop: boolean;
}

const marks = new WeakMap<Answer, Mark>();
// Until QA first injects an answer, no answer has a mark: the look-ups (several per request,
// each giving the answer an identity hash) are skipped.
let anyMarked = false;

/** Marks an answer as injected (and, with `drop`, as a connection to drop). */
export function markInjected(answer: Answer, by: InjectedBy, drop = false): Answer {
  anyMarked = true;
  marks.set(answer, { by, drop });
  return answer;
}

/** Who injected this answer, or `undefined` for one the fake gave on its own. */
export function injectedBy(answer: Answer): InjectedBy | undefined {
  return anyMarked ? marks.get(answer)?.by : undefined;
}

/**
 * Whether the door must drop the connection instead of answering: the HTTP door closes the
 * socket, `fake.fetch` and the msw handlers fail the fetch as a network error.
 */
export function isDropped(answer: Answer): boolean {
  return anyMarked && marks.get(answer)?.drop === true;
}
