import { observerCheck } from '../check.ts';

/** No timeouts, resets or refused connections. */
export const serverNoFaults = observerCheck({
  id: 'server.noFaults',
  title: 'every request gets an HTTP answer (no timeout, reset or refused connection)',
  source: 'What the service does (an HTTP/JSON interface)',
  // An oversized body is the harness's limit, not a fault: the check that read it could not run.
  appliesTo: (exchange) => exchange.fault !== undefined && exchange.fault.kind !== 'oversized',
  judge: (exchange) => exchange.fault?.message,
});
