/**
 * The request log `npm start` prints: one line per answered request.
 */
import type { ExchangeRecord } from '../../pipeline/config/config.ts';

export function formatExchange(record: ExchangeRecord, at = new Date()): string {
  const head = `${at.toISOString()} ${record.method} ${record.url} ${record.status} ${record.durationMs.toFixed(1)}ms`;
  const client = record.clientId === undefined ? '' : ` client=${JSON.stringify(record.clientId)}`;
  const who = record.control === true ? 'control' : `key=${record.keyId}`;
  const error = record.errorCode === undefined ? '' : ` error=${record.errorCode}`;
  // A stubbed 200 reads as the fake's own unless the line says who gave it.
  const injected = record.injected === undefined ? '' : ` ${record.injected}`;
  const action = record.controlAction === undefined ? '' : `: ${record.controlAction}`;
  return `${head} ${who}${error}${injected}${client}${action}`;
}
