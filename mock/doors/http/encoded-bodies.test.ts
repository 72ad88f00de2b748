import { expect, test } from 'vitest';
import { EncodedBodies } from './encoded-bodies.ts';

const long = (fill: string) => `[${`"${fill}",`.repeat(200)}"end"]`;

test('a short body is written as text; a long one as its UTF-8 bytes', () => {
  const bodies = new EncodedBodies();
  expect(bodies.encode('{"id":1}')).toBe('{"id":1}');
  const text = long('八');
  const bytes = bodies.encode(text);
  expect(Buffer.isBuffer(bytes)).toBe(true);
  expect((bytes as Buffer).toString('utf8')).toBe(text);
});

test('the same text gets the same bytes, and a changed text of the same length its own', () => {
  const bodies = new EncodedBodies();
  const first = bodies.encode(long('ab'));
  expect(bodies.encode(long('ab'))).toBe(first);
  const changed = bodies.encode(long('aé'));
  expect(changed).not.toBe(first);
  expect((changed as Buffer).toString('utf8')).toBe(long('aé'));
});

test('keeps the 16 latest encodings, dropping the oldest first', () => {
  const bodies = new EncodedBodies();
  const texts = Array.from({ length: 17 }, (_, index) => long(`pet ${index}`));
  const first = texts.map((text) => bodies.encode(text));
  // The 17th pushed out the 1st: it is encoded afresh; the 17th is still kept.
  expect(bodies.encode(texts[0] as string)).not.toBe(first[0]);
  expect(bodies.encode(texts[16] as string)).toBe(first[16]);
});
