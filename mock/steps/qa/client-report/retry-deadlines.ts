/**
 * How a request stands against the Retry-Afters its client was told: when each asks it to come
 * back (on the fake's clock and real time) and how early it came, for the client report.
 */
import type { ClientInstances, Deadline } from './client-instances.ts';
import type { Chain, SentCreate } from './client-record.ts';
import { type ClientEvent, complianceTolerance } from './client-report-shapes.ts';

/**
 * What a Retry-After value asks for, in ms from the answer: delta-seconds, or an HTTP-date read
 * against real time (the fake writes its dates on real time; see policies/retry-after.ts).
 */
export function retryAfterDelay(value: string, answeredReal: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - answeredReal);
}

/** How early a request is against a deadline given before it arrived: the smaller lead over both clocks (0: not early). */
export function earlyBy(deadline: Deadline | undefined, event: ClientEvent): number {
  if (deadline === undefined || deadline.answeredSeq > event.arrivalSeq) return 0;
  const lead = Math.min(deadline.fake - event.arrivedAt, deadline.real - event.arrivedReal);
  return lead > complianceTolerance.earlyToleranceMs ? lead : 0;
}

/**
 * How a request stands against the Retry-Afters it was given: the most it came early where that
 * counts, and the largest lead against one given on another socket (a copy's, perhaps).
 */
export interface Leads {
  early: number;
  otherSocket: Deadline | undefined;
  otherLead: number;
}

/** Adds one deadline's lead to `leads` (none when the request is not early against it). */
export function weighDeadline(
  leads: Leads,
  instances: ClientInstances<Chain, SentCreate>,
  event: ClientEvent,
  deadline: Deadline | undefined,
): void {
  const lead = earlyBy(deadline, event);
  if (lead === 0 || deadline === undefined) return;
  if (instances.decides(event.connection, deadline)) leads.early = Math.max(leads.early, lead);
  else if (lead > leads.otherLead) {
    leads.otherSocket = deadline;
    leads.otherLead = lead;
  }
}
