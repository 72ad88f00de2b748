/**
 * `--log <file>`: every request the run sent and what came back, one JSON object per line, for
 * a run that must be investigated later. The key is written as `$PETSTORE_API_KEY` (requests
 * carry the placeholder; answers go through the redactor).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { type Exchange, keyPlaceholder } from '../http/exchange.ts';
import type { Redactor } from './redact.ts';

function authorization(exchange: Exchange): string | undefined {
  const { auth } = exchange.spec;
  if (auth === 'none') return undefined;
  return auth === 'key' ? `Bearer ${keyPlaceholder}` : auth.header;
}

/** One exchange as a log line (without the newline). */
function logLine(exchange: Exchange, redact: Redactor): string {
  const { spec, response, fault } = exchange;
  const record = {
    sentAt: new Date(exchange.sentAtEpochMs).toISOString(),
    ms: Math.round(exchange.answeredAt - exchange.sentAt),
    operationId: spec.operationId,
    request: {
      method: spec.method,
      url: exchange.url,
      authorization: authorization(exchange),
      ...(spec.body === undefined ? {} : { body: spec.body }),
    },
    ...(response === undefined
      ? {}
      : {
          response: {
            status: response.status,
            headers: Object.fromEntries(response.headers),
            body: response.text,
          },
        }),
    ...(fault === undefined ? {} : { fault }),
  };
  return redact(JSON.stringify(record));
}

/** Opens (truncates) the log file and returns what writes one exchange to it. */
export function openExchangeLog(path: string, redact: Redactor): (exchange: Exchange) => void {
  writeFileSync(path, '');
  return (exchange) => appendFileSync(path, `${logLine(exchange, redact)}\n`);
}
