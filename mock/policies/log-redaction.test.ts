import { expect, test } from 'vitest';
import { redactUrl } from './log-redaction.ts';

const redact = (path: string, secrets: string[] = []) =>
  redactUrl(new URL(`http://127.0.0.1${path}`), secrets);

test('values of credential-like query parameters are redacted, other parameters kept', () => {
  expect(redact('/v1/pets?limit=2&status=sold')).toBe('/v1/pets?limit=2&status=sold');
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
  ]) {
    expect(redact(`/v1/pets?${name}=s3cret&limit=1`), name).toBe(
      `/v1/pets?${name}=[redacted]&limit=1`,
    );
  }
});

test('a known key is redacted wherever it appears in the URL, raw or percent-encoded', () => {
  const secrets = ['free-demo-key'];
  expect(redact('/v1/pets/free-demo-key', secrets)).toBe('/v1/pets/[redacted]');
  expect(redact('/v1/pets/%66ree-demo-key', secrets)).toBe('/v1/pets/[redacted]');
  expect(redact('/v1/pets?x=Bearer%20free-demo-key', secrets)).toBe('/v1/pets?x=[redacted]');
  expect(redact('/v1/pets?free-demo-key', secrets)).toBe('/v1/pets?[redacted]');
  expect(redact('/v1/pets?q=%E0%A4%A', secrets)).toBe('/v1/pets?q=%E0%A4%A');
});
