/**
 * Create requests a client sent again although it could not know the first one's outcome, for
 * the client report: after a 5xx or a dropped connection, before the first one's answer (it timed
 * out), or marked by the browser door as possibly sent twice (redispatch).
 */
import type { Instance } from './client-instances.ts';
import type { Chain, ClientRecord, SentCreate } from './client-record.ts';
import type { ClientEvent } from './client-report-shapes.ts';

/** Requests (method and path) named in the resent-create observation. */
const resentNamed = 5;

/** Whether a create kept and a new one have one identity (identityOf), told without building it. */
function sameCreate(sent: SentCreate, event: ClientEvent): boolean {
  // The path and query decide, whichever host it was sent to (fake.fetch answers every host it allows).
  return (
    sent.method === event.method &&
    sent.bodyHash === event.bodyHash &&
    sent.target === event.path + event.query
  );
}

/** Whether an earlier create overlaps this one: either arrived while the other was unanswered. */
function overlaps(sent: SentCreate, event: ClientEvent, answeredSeq: number): boolean {
  const arrived = sent.arrivalSeq;
  return (
    (arrived < event.arrivalSeq && sent.answeredSeq > event.arrivalSeq) ||
    (event.arrivalSeq < arrived && answeredSeq > arrived)
  );
}

/** A create sent again while an earlier one of the same body was unanswered: the client timed out. */
function resentBeforeAnswer(
  instance: Instance<Chain, SentCreate>,
  event: ClientEvent,
  answeredSeq: number,
): boolean {
  const { sent } = instance;
  let overlapping = false;
  for (let index = 0; index < sent.size && !overlapping; index++) {
    const earlier = sent.at(index);
    overlapping = overlaps(earlier, event, answeredSeq) && sameCreate(earlier, event);
  }
  const { method, path, query, bodyHash, arrivalSeq } = event;
  sent.push({ method, target: path + query, bodyHash, arrivalSeq, answeredSeq });
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
  instance: Instance<Chain, SentCreate>,
  chain: Chain | undefined,
  event: ClientEvent,
  answeredSeq: number,
): void {
  if (event.possibleCopy === true) noteResent(c, 'redispatch', event);
  else if (chain?.unknownOutcome === true)
    noteResent(c, chain.failedStatus === 0 ? 'dropped' : String(chain.failedStatus), event);
  else if (resentBeforeAnswer(instance, event, answeredSeq)) noteResent(c, 'timeout', event);
}
