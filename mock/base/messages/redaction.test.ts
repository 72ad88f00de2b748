import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createRedaction, credentialPlaceholders, redacted } from './redaction.ts';

const key = 'business-demo-key';
const token = 'a-control-token-of-some-length';
const redaction = createRedaction({ secrets: () => [key, token] });
const url = (path: string) => redaction.url(new URL(`http://127.0.0.1${path}`));

/** The forms a secret may travel in, as an attacker or a careless client would send it. */
function encodings(secret: string): string[] {
  const every = [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`);
  return [
    secret,
    encodeURIComponent(secret),
    every.join(''),
    every.join('').toUpperCase(),
    // Every other character encoded: no fixed form matches, the decoded text does.
    [...secret].map((char, at) => (at % 2 === 0 ? encodeURIComponent(char) : char)).join(''),
    encodeURIComponent(encodeURIComponent(secret)),
    Buffer.from(secret).toString('base64'),
    Buffer.from(`user:${secret}`).toString('base64'),
    Buffer.from(`ab${secret}`).toString('base64url'),
    JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
  ];
}

/** Whether any form of `secret` is left in `text`. */
function leaks(text: string, secret: string): boolean {
  const inner = (pad: string) => {
    const encoded = Buffer.from(`${pad}${secret}`).toString('base64').replace(/=+$/, '');
    return encoded.slice(Math.ceil((pad.length * 4) / 3), -2);
  };
  const forms = [
    secret,
    encodeURIComponent(secret),
    inner(''),
    inner('x'),
    inner('xx'),
    inner('').replaceAll('+', '-').replaceAll('/', '_'),
  ];
  let plain = text;
  for (let round = 0; round < 3; round++)
    plain = plain.replace(/%[0-9a-f]{2}/gi, (hex) =>
      String.fromCharCode(parseInt(hex.slice(1), 16)),
    );
  return forms.some((form) => text.includes(form) || plain.includes(form));
}

test('values of credential-shaped query parameters are redacted, other parameters kept', () => {
  expect(url('/v1/pets?limit=2&status=sold')).toBe('/v1/pets?limit=2&status=sold');
  for (const name of [
    'api_key',
    'apikey',
    'api-key',
    'key',
    'token',
    'access_token',
    'Authorization',
    'client_secret',
    'password',
    'x_auth_token',
    'api%5Fkey',
  ]) {
    expect(url(`/v1/pets?${name}=s3cret-value&limit=1`), name).toBe(
      `/v1/pets?${name}=${redacted}&limit=1`,
    );
  }
});

/** Credential-shaped names that end in `key` or name a signature or a credential. */
const credentialNames = [
  'access_key',
  'secret_key',
  'private_key',
  'subscription-key',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'Ocp-Apim-Subscription-Key',
  'x-functions-key',
  'X-Goog-Signature',
  'X-Goog-Credential',
  'aws_secret_access_key',
  'accessKey',
  'secretKey',
  'privateKey',
  'subscriptionKey',
  'signing_key',
  'credentials',
];

/** A name in each spelling a client may use: as given, upper, lower, and `-` and `_` swapped. */
function spellings(name: string): string[] {
  const swapped = name.includes('-') ? name.replaceAll('-', '_') : name.replaceAll('_', '-');
  return [...new Set([name, name.toUpperCase(), name.toLowerCase(), swapped])];
}

test('names that end in key or name a signature or a credential are redacted in queries, JSON and header lines, in any case and with - or _', () => {
  for (const name of credentialNames)
    for (const spelt of spellings(name)) {
      expect(url(`/v1/pets?${spelt}=s3cret-value-9&limit=1`), spelt).toBe(
        `/v1/pets?${spelt}=${redacted}&limit=1`,
      );
      expect(redaction.json({ [spelt]: 's3cret-value-9', name: 'Rex' }), spelt).toEqual({
        [spelt]: redacted,
        name: 'Rex',
      });
      expect(redaction.text(`{"${spelt}": "s3cret-value-9"}`), spelt).toBe(
        `{"${spelt}": "${redacted}"}`,
      );
      if (!spelt.includes('_'))
        expect(redaction.text(`${spelt}: s3cret-value-9`), spelt).toBe(`${spelt}: ${redacted}`);
    }
});

test('names that end in key but name no secret are kept: Idempotency-Key, a sort key, monkey', () => {
  for (const name of [
    'Idempotency-Key',
    'sort_key',
    'partition-key',
    'public_key',
    'monkey',
    'keyId',
  ])
    expect(url(`/v1/pets?${name}=kept-value&limit=1`), name).toBe(
      `/v1/pets?${name}=kept-value&limit=1`,
    );
  expect(redaction.text('Idempotency-Key: 7c4a-order-1')).toBe('Idempotency-Key: 7c4a-order-1');
  expect(redaction.json({ keyId: 'demo-free', key: 'a-pact-interaction-key' })).toEqual({
    keyId: 'demo-free',
    key: 'a-pact-interaction-key',
  });
});

test('a known key or the control token is redacted wherever it stands in a URL, in every encoding', () => {
  for (const secret of [key, token])
    for (const form of encodings(secret)) {
      for (const path of [`/v1/pets/${form}`, `/v1/pets?q=${form}`, `/v1/pets?${form}=1`]) {
        const shown = url(path);
        expect(leaks(shown, secret), `${path} -> ${shown}`).toBe(false);
        expect(shown).toContain(redacted);
      }
    }
  // A key holding a slash spans two path segments: still one secret.
  const slashed = createRedaction({ secrets: () => ['abc/def-ghi+jkl='] });
  expect(slashed.url(new URL('http://h/v1/abc/def-ghi+jkl=/x'))).toBe(`/v1/${redacted}/x`);
  expect(url('/v1/pets?q=%E0%A4%A')).toBe('/v1/pets?q=%E0%A4%A');
});

test('any Bearer or Basic value is redacted, known or made up, but our own placeholders are kept', () => {
  expect(redaction.text('Authorization: Bearer made-up-1234')).toBe(
    `Authorization: Bearer ${redacted}`,
  );
  expect(redaction.text('x=Bearer%20made-up-1234')).toBe(`x=Bearer%20${redacted}`);
  expect(redaction.text('Basic dXNlcjpwYXNz')).toBe(`Basic ${redacted}`);
  for (const placeholder of Object.values(credentialPlaceholders))
    expect(redaction.text(placeholder)).toBe(placeholder);
  // Pact's own expression, filled in by the verifier, is not a credential.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's expression syntax, as a pact holds it.
  expect(redaction.text('Bearer ${apiKey}')).toBe('Bearer ${apiKey}');
});

test('credential-shaped fields are redacted in JSON values and JSON, form and header-like text', () => {
  const value = {
    name: 'Rex',
    password: 'hunter22',
    apiKey: 12345678,
    nested: { access_token: ['one-token', 'two-token'], status: 'sold' },
    key: 'a-pact-interaction-key',
    code: 'not_found',
  };
  expect(redaction.json(value)).toEqual({
    name: 'Rex',
    password: redacted,
    apiKey: redacted,
    nested: { access_token: [redacted, redacted], status: 'sold' },
    key: 'a-pact-interaction-key',
    code: 'not_found',
  });
  expect(redaction.text('{"name":"Rex","password": "hunter22"}')).toBe(
    `{"name":"Rex","password": "${redacted}"}`,
  );
  expect(redaction.text('name=Rex&api_key=made-up-1')).toBe(`name=Rex&api_key=${redacted}`);
  expect(redaction.text('application/json; apikey=made-up-1')).toBe(
    `application/json; apikey=${redacted}`,
  );
  expect(redaction.text('X-Api-Key: made-up-1')).toBe(`X-Api-Key: ${redacted}`);
  // Field names that hold a secret are redacted too; a field called __proto__ stays a field.
  const named = redaction.json(JSON.parse(`{"${key}": 1, "__proto__": {"password": "p4ssword"}}`));
  expect(Object.keys(named)).toEqual([redacted, '__proto__']);
  expect(Object.getPrototypeOf(named)).toBe(Object.prototype);
  expect(JSON.stringify(named)).not.toContain('p4ssword');
});

test('redacting twice changes nothing, and text without secrets is left as it is', () => {
  const text = `GET /v1/pets?api_key=${key}&limit=5 Bearer ${token} 200 {"id":1,"name":"Rex"}`;
  const once = redaction.text(text);
  expect(redaction.text(once)).toBe(once);
  const innocent =
    'GET /v1/pets?limit=5 -> 200 {"id":1,"name":"Rex","status":"sold"} key demo-free';
  expect(redaction.text(innocent)).toBe(innocent);
});

test('with remember, a secret stays hidden after the keys forget it', () => {
  let secrets: readonly string[] = ['first-secret-key'];
  const remembering = createRedaction({ secrets: () => secrets, remember: true });
  expect(remembering.text('/first-secret-key')).toBe(`/${redacted}`);
  secrets = ['second-secret-key'];
  expect(remembering.text('/first-secret-key /second-secret-key')).toBe(
    `/${redacted} /${redacted}`,
  );
});

test('property: a secret planted anywhere in any text, in any encoding, never survives', () => {
  const secretArb = fc.stringMatching(/^[A-Za-z0-9._~+/-]{8,40}$/);
  const filler = fc.string({ unit: 'binary-ascii', maxLength: 40 });
  fc.assert(
    fc.property(secretArb, filler, filler, fc.nat(9), (secret, before, after, which) => {
      const planted = createRedaction({ secrets: () => [secret] });
      const form = encodings(secret)[which] as string;
      const shown = planted.text(`${before}${form}${after}`);
      expect(leaks(shown, secret), `${form} -> ${shown}`).toBe(false);
    }),
    { seed: 29, numRuns: 500 },
  );
});
