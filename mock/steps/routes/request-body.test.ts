import { expect, test } from 'vitest';
import { fromFetchRequest } from '../../core/fetch-adapter.ts';
import { checkJsonContentType, readJsonBody } from './request-body.ts';

test('accepts application/json and +json types in UTF-8 only', () => {
  for (const type of [
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/merge-patch+json',
  ]) {
    expect(checkJsonContentType(type), type).toBeUndefined();
  }
  for (const type of [
    null,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'multipart/form-data; boundary=x',
  ]) {
    expect(checkJsonContentType(type), String(type)).toMatch(/Content-Type/);
  }
});

const post = (
  body: BodyInit | null,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => new Request('http://x/v1/pets', { method: 'POST', body, headers });

test('parses a JSON body, keeping big integers exact', async () => {
  const result = await readJsonBody(
    fromFetchRequest(post('{"categoryId": 9223372036854775807}')),
    1024,
  );
  expect(result).toEqual({ ok: true, value: { categoryId: 9223372036854775807n } });
});

test('answers empty, invalid, non-UTF-8 and oversized bodies with the right error', async () => {
  const codeOf = async (request: Request, max = 1024) => {
    const result = await readJsonBody(fromFetchRequest(request), max);
    return result.ok ? 'ok' : result.answer.errorCode;
  };
  expect(await codeOf(post(''))).toBe('missing_body');
  expect(await codeOf(post('{"name":'))).toBe('invalid_json');
  expect(await codeOf(post(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('invalid_json');
  expect(await codeOf(post('x'.repeat(2000)))).toBe('payload_too_large');
  expect(await codeOf(post('{}', { 'content-type': 'text/plain' }))).toBe('invalid_content_type');
});

test('stops reading a streamed body as soon as it passes the cap', async () => {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new Uint8Array(1024));
      if (pulled > 10_000) controller.close();
    },
  });
  const request = new Request('http://x/v1/pets', {
    method: 'POST',
    body: stream,
    headers: { 'content-type': 'application/json' },
    duplex: 'half',
  } as RequestInit);
  const result = await readJsonBody(fromFetchRequest(request), 4096);
  expect(result.ok).toBe(false);
  expect(pulled).toBeLessThan(10);
});
