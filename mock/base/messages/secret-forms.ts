/**
 * The forms a secret may travel in, besides itself: JSON-escaped, XML-escaped, percent-encoded
 * every way a client does, and base64 at each byte alignment (a secret inside a longer
 * base64-encoded text). redaction.ts looks for every one of them. No Node module: this runs in
 * the browser's service worker too.
 */

const utf8 = new TextEncoder();

/** Base64 of the secret at the three byte alignments, without the characters neighbours change. */
function base64Forms(secret: string): string[] {
  const forms: string[] = [];
  // btoa over the bytes as a binary string: no Buffer in the browser's service worker.
  const binary = Array.from(utf8.encode(secret), (byte) => String.fromCharCode(byte)).join('');
  for (const pad of [0, 1, 2]) {
    const encoded = btoa('\0'.repeat(pad) + binary).replace(/=+$/, '');
    // The first characters depend on the bytes before the secret, the last group on those after.
    const inner = encoded.slice(Math.ceil((pad * 4) / 3), -2);
    forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

function jsonForms(secret: string): string[] {
  const plain = JSON.stringify(secret).slice(1, -1);
  const slashes = plain.replaceAll('/', '\\/');
  const ascii = (text: string) =>
    text.replace(
      /[^\x20-\x7e]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return [plain, slashes, ascii(plain), ascii(slashes)];
}

function percentForms(secret: string): string[] {
  const upper = encodeURIComponent(secret);
  const every = [...utf8.encode(secret)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
  return [upper, upper.replaceAll('%20', '+'), every, every.toLowerCase()];
}

function xmlForm(secret: string): string {
  return secret
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * Every form a secret may travel in, of at least `minLength` characters (percent-decoding is
 * done on the text, not here).
 */
export function formsOf(secret: string, minLength: number): string[] {
  return [
    ...new Set([
      secret,
      ...jsonForms(secret),
      xmlForm(secret),
      ...percentForms(secret),
      ...base64Forms(secret),
    ]),
  ].filter((form) => form.length >= minLength);
}
