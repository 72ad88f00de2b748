/**
 * The API keys every realistic server accepts and the plan each one has: a Free key (the key the
 * tests give the harness) and a Pro key (a second key with another plan), as a team's key table.
 */
import { type PlanName, planLimits } from '../../../contract-tests/contract/interface-facts.ts';

/** The Free plan's key. */
export const freeKey = 'real-servers-free-3b9d0c71';
/** The Pro plan's key. */
export const proKey = 'real-servers-pro-8e24f5aa';

const plans = new Map<string, PlanName>([
  [freeKey, 'free'],
  [proKey, 'pro'],
]);

/** The key of a well-formed `Authorization: Bearer <key>` header naming a known key, else undefined. */
export function knownKey(authorization: string | undefined): string | undefined {
  const match = /^Bearer ([^\s]+)$/.exec(authorization ?? '');
  const key = match?.[1];
  return key !== undefined && plans.has(key) ? key : undefined;
}

/**
 * Per-minute limit of the caller: its plan's, or the Free plan's for a caller without a valid key
 * (the interface names no plan for them; the servers give them a Free window of their own).
 */
export function perMinuteLimit(authorization: string | undefined): number {
  return perMinuteLimitOf(knownKey(authorization) ?? '');
}

/** Per-day limit of the caller: its plan's, or the Free plan's for a caller without a valid key. */
export function perDayLimit(authorization: string | undefined): number {
  return planLimits[plans.get(knownKey(authorization) ?? '') ?? 'free'].perDay;
}

/** Per-minute limit of a `limiterKey`: its key's plan's, or the Free plan's for an address. */
export function perMinuteLimitOf(limiterKey: string): number {
  return planLimits[plans.get(limiterKey) ?? 'free'].perMinute;
}

/**
 * The rate-limit key of a request: its API key when valid, else its client address, so requests
 * without a valid key never draw from a key's window (a keyGenerator as the limiters' READMEs
 * show one, keyed by what identifies the caller).
 */
export function limiterKey(authorization: string | undefined, clientAddress: string): string {
  return knownKey(authorization) ?? `address:${clientAddress}`;
}
