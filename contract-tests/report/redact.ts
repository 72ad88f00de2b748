/**
 * Keeps the API key out of everything the harness prints or writes, in any form a server might
 * echo it in: as sent, JSON-escaped (`\/`, `\u00e9`), percent-encoded, base64 (at any
 * alignment, as inside a Basic header), and any fragment of 8 or more characters of those (a key
 * cut by a preview, a log line or a truncating server).
 */
import { keyPlaceholder, secondKeyPlaceholder } from '../http/exchange.ts';

/** Fragments shorter than this are too likely to match innocent text to be worth redacting. */
const fragmentLength = 8;

/** Replaces every form of one key in a text. */
export type Redactor = (text: string) => string;

function jsonEscaped(key: string): string[] {
  const plain = JSON.stringify(key).slice(1, -1);
  const slashes = plain.replaceAll('/', '\\/');
  const ascii = (text: string) =>
    text.replace(
      /[^\x20-\x7e]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return [plain, slashes, ascii(slashes), ascii(plain)];
}

function percentEncoded(key: string): string[] {
  const upper = encodeURIComponent(key);
  const every = [...new TextEncoder().encode(key)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
  const forms = [upper, upper.replaceAll('%20', '+'), every];
  return [
    ...forms,
    ...forms.map((form) => form.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())),
  ];
}

/** Base64 of the key at the three byte alignments, without the characters its neighbours change. */
function base64Forms(key: string): string[] {
  const forms: string[] = [];
  for (const pad of ['', 'x', 'xx']) {
    const encoded = Buffer.from(`${pad}${key}`).toString('base64').replace(/=+$/, '');
    // The first pad characters and the last partial group depend on the bytes around the key.
    const inner = encoded.slice(Math.ceil((pad.length * 4) / 3), -2);
    forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

/**
 * A redactor for `apiKey`. Keys shorter than 8 characters are only redacted whole: fragments of
 * them would match innocent text.
 * @example createRedactor(key)(`body: ${text}`)
 */
export function createRedactor(apiKey: string, placeholder = keyPlaceholder): Redactor {
  if (apiKey.length < 6) return (text) => text;
  const forms = [
    ...new Set(
      [apiKey, ...jsonEscaped(apiKey), ...percentEncoded(apiKey), ...base64Forms(apiKey)].filter(
        (form) => form.length >= fragmentLength,
      ),
    ),
  ];
  const grams = new Set<string>();
  for (const form of forms)
    for (let at = 0; at + fragmentLength <= form.length; at++)
      grams.add(form.slice(at, at + fragmentLength));
  return (text) => {
    let whole = text.split(apiKey).join(placeholder);
    if (grams.size === 0) return whole;
    // Mark every character covered by a fragment of a form, then replace each marked run.
    const covered = new Uint8Array(whole.length);
    let any = false;
    for (let at = 0; at + fragmentLength <= whole.length; at++) {
      if (grams.has(whole.slice(at, at + fragmentLength))) {
        covered.fill(1, at, at + fragmentLength);
        any = true;
      }
    }
    if (!any) return whole;
    let result = '';
    for (let at = 0; at < whole.length; ) {
      if (covered[at] === 1) {
        while (covered[at] === 1) at++;
        result += placeholder;
      } else result += whole[at++];
    }
    whole = result;
    return whole;
  };
}

/** A redactor for the keys a run reads from the environment: `PETSTORE_API_KEY` and `PETSTORE_API_KEY_2`. */
export function createEnvRedactor(env: NodeJS.ProcessEnv): Redactor {
  const first = createRedactor(env.PETSTORE_API_KEY?.trim() ?? '');
  const second = createRedactor(env.PETSTORE_API_KEY_2?.trim() ?? '', secondKeyPlaceholder);
  return (text) => first(second(text));
}
