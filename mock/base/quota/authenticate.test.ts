import fc from 'fast-check';
import { expect, test } from 'vitest';
import { authenticate, constantTimeEqual, parseBearer } from './authenticate.ts';

const keys = [
  { id: 'a', key: 'free-demo-key', plan: 'free' },
  { id: 'b', key: 'pro-demo-key', plan: 'pro' },
];

test('accepts a known key in a Bearer header, scheme case-insensitive', () => {
  expect(authenticate('Bearer pro-demo-key', keys)).toEqual({ ok: true, key: keys[1] });
  expect(authenticate('bearer free-demo-key', keys)).toMatchObject({ ok: true, key: { id: 'a' } });
});

test('tells missing, malformed and unknown credentials apart', () => {
  expect(authenticate(null, keys)).toEqual({ ok: false, reason: 'missing' });
  expect(authenticate('   ', keys)).toEqual({ ok: false, reason: 'missing' });
  for (const header of [
    'free-demo-key',
    'Basic Zm9vOmJhcg==',
    'Bearer',
    'Bearer a b',
    'Bearer \u00e9t\u00e9',
  ]) {
    expect(authenticate(header, keys)).toEqual({ ok: false, reason: 'malformed' });
  }
  expect(authenticate('Bearer free-demo-ke', keys)).toEqual({ ok: false, reason: 'unknown' });
  expect(authenticate('Bearer free-demo-keyy', keys)).toEqual({ ok: false, reason: 'unknown' });
});

test('parses the token of a Bearer header', () => {
  expect(parseBearer('Bearer abc.def~ghi')).toBe('abc.def~ghi');
  expect(parseBearer(null)).toBe('missing');
  expect(parseBearer('Token abc')).toBe('malformed');
});

test('constant-time comparison agrees with ===, including different lengths and non-ASCII', () => {
  const samples = ['', 'a', 'ab', 'free-demo-key', 'free-demo-kez', 'Zoë', 'Zoe'];
  for (const a of samples) for (const b of samples) expect(constantTimeEqual(a, b)).toBe(a === b);
});

test('the Bearer parser reads every header as the grammar /^Bearer +(\\S+) *$/i then a b64token does (RFC 6750 section 2.1)', () => {
  // The reference: the grammar as regular expressions, simpler than the parser, as the oracle.
  const reference = (header: string | null) => {
    if (header === null || header.trim() === '') return 'missing';
    const token = /^Bearer +(\S+) *$/i.exec(header)?.[1];
    return token !== undefined && /^[A-Za-z0-9\-._~+/]+=*$/.test(token) ? token : 'malformed';
  };
  const pieces = fc.constantFrom(
    'Bearer',
    'bearer',
    'BEARER',
    'BeArEr',
    'Bear',
    'Basic',
    ' ',
    '  ',
    '\t',
    '\u00a0',
    'pro-demo-key',
    'a.b_c~d+e/f',
    '==',
    '=',
    'x',
    'é',
    '!',
    ',',
  );
  fc.assert(
    fc.property(
      fc.option(fc.array(pieces, { maxLength: 6 }).map((parts) => parts.join(''))),
      (header) => {
        expect(parseBearer(header)).toBe(reference(header));
      },
    ),
    { seed: 40, numRuns: 5_000 },
  );
});
