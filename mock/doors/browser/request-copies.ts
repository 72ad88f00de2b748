/**
 * Telling one create from two in a tab. Chromium dispatches a fetch again to a service worker that
 * restarted under it (the tab whose renderer hosted msw's worker crashed), and msw's worker hands
 * it to the page as a new request: the page cannot tell that copy from the app creating the same
 * pet twice. A request with an `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) is
 * one call, answered once from its reply (shared-fake.ts runs a keyed call once). Without one, a
 * create that comes again from this tab with the same headers and body while the first is in
 * flight or just answered is told on the console, counted (`fake.status().possibleCopies`) and
 * marked for the client report, which counts it among its resent creates.
 */
import { possibleCopyHeader } from '../../base/messages/fake-request.ts';
import { fnv1a } from '../../base/messages/fnv1a.ts';
import type { WireRequest } from './tab-messages.ts';

/** How soon after the first a same create counts as a possible copy of it. */
const copyWindowMs = 5_000;
/** Creates remembered per tab to compare with (a copy comes within seconds of its first). */
const remembered = 64;
/** The longest Idempotency-Key kept (the draft gives no limit; a UUID is 36). */
const maxKeyLength = 255;

/** FNV-1a as eight hex digits: a short, stable name for a body (kept in stored call ids). */
function fnv(bytes: Uint8Array | string): string {
  return fnv1a(bytes).toString(16).padStart(8, '0');
}

function bodyName(wire: WireRequest): string {
  return wire.body === 'too-large' ? 'too-large' : fnv(wire.body);
}

/** Whether resending the request may change the state twice. */
function mayActTwice(method: string): boolean {
  return method === 'POST' || method === 'PATCH';
}

/**
 * The call key of a create that carries an Idempotency-Key: the key and what the request asks
 * (so a key reused for another request is another call), or `undefined`.
 */
export function idempotencyKeyOf(wire: WireRequest): string | undefined {
  if (!mayActTwice(wire.method)) return undefined;
  const header = wire.headers.find(([name]) => name.toLowerCase() === 'idempotency-key');
  const key = header?.[1].trim();
  if (key === undefined || key === '') return undefined;
  return `idempotency:${key.slice(0, maxKeyLength)}:${fnv(`${wire.method} ${wire.url}`)}:${bodyName(wire)}`;
}

/**
 * Watches one tab's requests for creates that come twice; `warn` tells each one. `arrived`
 * returns the request as it goes on (a possible copy marked for the client report) and what to
 * call once it is answered; `count` says how many possible copies this tab has seen.
 */
export function createCopyWatch(warn: (message: string) => void) {
  const recent: { readonly print: string; readonly at: number; answeredAt?: number }[] = [];
  let copies = 0;
  return {
    arrived(wire: WireRequest, keyed: boolean): { wire: WireRequest; done: () => void } {
      if (keyed || !mayActTwice(wire.method)) return { wire, done: () => {} };
      const at = performance.now();
      const headers = wire.headers.map(([name, value]) => `${name.toLowerCase()}:${value}`);
      const print = `${wire.method} ${wire.url} ${fnv(headers.sort().join('\n'))} ${bodyName(wire)}`;
      const first = recent.find(
        (entry) => entry.print === print && (entry.answeredAt ?? at) > at - copyWindowMs,
      );
      if (first !== undefined) {
        copies += 1;
        const path = new URL(wire.url).pathname;
        warn(
          `petstore-fake: ${wire.method} ${path} came again from this tab with the same headers and body ${((at - first.at) / 1000).toFixed(1)} s after the first: possibly one request the browser dispatched twice (its service worker restarted), so it may have run twice. Send an Idempotency-Key header to have it run once (docs/browser.md).`,
        );
      }
      const entry: (typeof recent)[number] = { print, at };
      recent.push(entry);
      if (recent.length > remembered) recent.shift();
      return {
        wire:
          first === undefined
            ? wire
            : { ...wire, headers: [...wire.headers, [possibleCopyHeader, '1'] as const] },
        done: () => {
          entry.answeredAt = performance.now();
        },
      };
    },
    count: () => copies,
  };
}
