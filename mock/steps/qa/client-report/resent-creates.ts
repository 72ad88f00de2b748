/**
 * Create requests a client sent again although it could not know the first one's outcome, for
 * the client report: after a 5xx or a dropped connection, before the first one's answer (it timed
 * out), or marked by the browser door as possibly sent twice (redispatch).
 */
import type { Chain, Instance } from './client-instances.ts';
import type { ClientRecord } from './client-record.ts';
import type { ClientEvent } from './client-report-shapes.ts';

/** Requests (method and path) named in the resent-create observation. */
const resentNamed = 5;

/** A create sent again while an earlier one of the same body was unanswered: the client timed out. */
function resentBeforeAnswer({ sent }: Instance, event: ClientEvent): boolean {
  const { method, path, query, bodyHash, arrivalSeq, answeredSeq } = event;
  const target = path + query;
  let overlapping = false;
  for (let index = 0; index < sent.size && !overlapping; index++) {
    const earlier = sent.at(index);
    // Either arrived while the other was unanswered, with one identity (identityOf) told field
    // by field; the path and query decide, whichever host it was sent to (fake.fetch answers
    // every host it allows).
    overlapping =
      ((earlier.arrivalSeq < arrivalSeq && earlier.answeredSeq > arrivalSeq) ||
        (arrivalSeq < earlier.arrivalSeq && answeredSeq > earlier.arrivalSeq)) &&
      earlier.method === method &&
      earlier.bodyHash === bodyHash &&
      earlier.target === target;
  }
  sent.push({ method, target, bodyHash, arrivalSeq, answeredSeq });
  return overlapping;
}

/** Counts a resent create by its cause, naming its request once. */
function noteResent(c: ClientRecord, cause: string, event: ClientEvent): void {
  c.resent[cause] = (c.resent[cause] ?? 0) + 1;
  // The same method and URL as the last one named names the same request (or the list was full).
  const before = c.resentLast;
  if (
    before !== undefined &&
    before.method === event.method &&
    before.path === event.path &&
    before.query === event.query
  )
    return;
  c.resentLast = event;
  const named = `${event.method} ${event.path}`;
  if (!c.resentRequests.includes(named) && c.resentRequests.length < resentNamed)
    c.resentRequests.push(named);
}

/** A create: resent after a failure whose outcome the client could not know, or before its answer. */
export function noteCreate(
  c: ClientRecord,
  instance: Instance,
  chain: Chain | undefined,
  event: ClientEvent,
): void {
  if (event.possibleCopy === true) noteResent(c, 'redispatch', event);
  else if (chain?.unknownOutcome === true)
    noteResent(c, chain.failedStatus === 0 ? 'dropped' : String(chain.failedStatus), event);
  else if (resentBeforeAnswer(instance, event)) noteResent(c, 'timeout', event);
}
