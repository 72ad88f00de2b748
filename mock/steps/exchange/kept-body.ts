/**
 * How much of a request body an exchange keeps, and how: its start as text, redacted so that no
 * cut leaves part of a secret, and memory of its own, so a kept start never holds a large body.
 */
import type { BodyBytes } from '../../base/messages/fake-request.ts';
import type { Redaction } from '../../base/messages/redaction.ts';

/** Most characters of a body kept. */
export const bodyChars = 2048;
/** How far past the cut a long body is redacted. */
const windowMargin = 4096;
/**
 * How far past the cut a secret cut by the window's end may reach: more than the longest form
 * the redaction finds of the longest key (256 characters, 1,280 percent-encoded twice).
 */
const cutGuard = 2048;

/** What a body leaves in its exchange: its start, its size, and whether the start is all of it. */
export interface KeptBody {
  readonly kept: string | null;
  readonly bytes: number | null;
  readonly truncated: boolean;
}

/**
 * Where the JSON string open at the end of a text starts (its quote), or -1 when none is open:
 * a text that is not JSON may show a stray quote as one, which only leaves more out.
 */
function openStringStart(text: string): number {
  let start = -1;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (start === -1) {
      if (unit === 34) start = at;
    } else if (unit === 92) at += 1;
    else if (unit === 34) start = -1;
  }
  return start;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A copy of a string that shares no memory with the one it was cut from. V8 keeps a `slice` of
 * a long string as a view of it: the first 2 KiB of a 1 MB body, kept so, would hold the whole
 * megabyte for as long as the entry stands (bounded-recorders.test.ts floods it so).
 */
export function detached(text: string): string {
  return utf8.decode(encoder.encode(text));
}

/**
 * Decodes bodies of at most `maxBytes`, keeping the last one's bytes and text: the same body sent
 * again (a retry, a test's fixture, a load test) is the same string without a decode, and the
 * journal then keeps one string for both. Its memory is one body's bytes.
 */
function createBodyDecoder(maxBytes: number): (bytes: Uint8Array) => string {
  const lastBytes = new Uint8Array(maxBytes);
  let lastLength = -1;
  let lastText = '';
  return (bytes) => {
    const length = bytes.byteLength;
    if (length === lastLength) {
      let at = 0;
      while (at < length && bytes[at] === lastBytes[at]) at += 1;
      if (at === length) return lastText;
    }
    lastText = utf8.decode(bytes);
    lastBytes.set(bytes);
    lastLength = length;
    return lastText;
  };
}

/** The body of a request that sent none. */
export const noBody: KeptBody = { kept: null, bytes: 0, truncated: false };

/**
 * Keeps bodies' starts: a short one as sent (redacted when it is read); a longer one redacted
 * here, then cut. A cut first could leave part of a secret, or a credential's value without the
 * quote that ends it, which no rule would then recognise; redacting a whole large body is slow
 * (bench/optimisations.md), so only a window past the cut is redacted, made safe at its end: a
 * JSON string still open there is left out from its opening quote, and a window whose redaction
 * shrank so far that its end (where a secret may have been cut) comes near the part kept is
 * redacted whole instead.
 */
export function createBodyKeeper(redaction: Redaction): (bytes: BodyBytes) => KeptBody {
  const decodeShort = createBodyDecoder(bodyChars * 4);
  return (bytes) => {
    if (bytes === 'too-large') return { kept: null, bytes: null, truncated: true };
    if (bytes.byteLength === 0) return noBody;
    // A body of at most bodyChars characters has at most 4 bytes each: larger ones are cut, and
    // only the window's bytes are decoded (a 1 MB body is not made a string to keep 2 KiB of it).
    if (bytes.byteLength <= bodyChars * 4) {
      const text = decodeShort(bytes);
      if (text.length <= bodyChars)
        return { kept: text, bytes: bytes.byteLength, truncated: false };
    }
    const windowBytes = bytes.subarray(0, (bodyChars + windowMargin) * 4);
    let window = utf8.decode(windowBytes).slice(0, bodyChars + windowMargin);
    const open = openStringStart(window);
    if (open !== -1) window = window.slice(0, open + 1);
    let shown = redaction.text(window);
    if (open === -1 && shown.length < bodyChars + cutGuard)
      shown = redaction.text(utf8.decode(bytes));
    return { kept: detached(shown.slice(0, bodyChars)), bytes: bytes.byteLength, truncated: true };
  };
}
