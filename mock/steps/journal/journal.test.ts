/**
 * The journal's bounds and its redaction: whatever clients send, it holds at most its entries
 * and its bytes (the oldest go first, counted in `dropped`), keeps at most 2048 characters of a
 * body, and shows nothing a secret or a credential-shaped field carried (the one redaction,
 * redaction.ts), whole or cut. And its session state: saved, loaded, refused when it is not one.
 */
import { expect, test } from 'vitest';
import { createRedaction } from '../../base/messages/redaction.ts';
import { createFake } from '../../core/fake.ts';
import { SessionStateError } from '../../pipeline/session.ts';
import { createJournal, type JournalRecord } from './journal.ts';

const api = 'http://127.0.0.1:4010/v1';
const free = { Authorization: 'Bearer free-demo-key', 'Content-Type': 'application/json' };
const noSecrets = createRedaction({ secrets: () => [] });
/** A fake no request has arrived at yet: entries are numbered as the test gives them. */
const noArrivals = () => 0;

function record(seq: number, body: string | null = null): JournalRecord {
  return {
    seq,
    atMs: 1_780_000_000_000 + seq,
    realMs: 1_780_000_000_000,
    method: 'GET',
    path: '/v1/pets',
    query: '',
    operationId: 'listPets',
    keyId: 'demo-free',
    clientId: '-',
    connection: 'in-process',
    status: 200,
    errorCode: null,
    breaks: null,
    headers: { 'X-RateLimit-Limit': '60' },
    forced: false,
    chaos: false,
    stubbed: false,
    dropped: false,
    refusedEarly: false,
    durationMs: 0.1,
    body,
    bodyBytes: body?.length ?? 0,
    bodyTruncated: false,
  };
}

test('past maxEntries the oldest entries go, and the answer counts them', () => {
  const journal = createJournal(
    { maxEntries: 3, maxBytes: 1_000_000, bodyChars: 2048 },
    noSecrets,
    noArrivals,
  );
  for (let seq = 1; seq <= 10; seq++) journal.add(record(seq));
  const read = journal.read({});
  expect(read.total).toBe(3);
  expect(read.dropped).toBe(7);
  expect(read.requests.map((entry) => entry.seq)).toEqual([10, 9, 8]);
  expect(read.bounds).toEqual({ maxEntries: 3, maxBytes: 1_000_000, bodyChars: 2048 });
  journal.clear();
  expect(journal.read({})).toMatchObject({ total: 0, dropped: 0 });
  // Long past the bound (the kept records' array is cut now and then): still the newest three.
  for (let seq = 1; seq <= 5000; seq++) journal.add(record(seq));
  expect(journal.read({})).toMatchObject({ total: 3, dropped: 4997 });
  expect(journal.read({}).requests.map((entry) => entry.seq)).toEqual([5000, 4999, 4998]);
  expect((journal.save() as { columns: { seq: unknown[] } }).columns.seq).toEqual([
    4998, 4999, 5000,
  ]);
});

test('the journal grows as it fills, and past its bound wraps round, oldest going first', () => {
  const journal = createJournal(
    { maxEntries: 200, maxBytes: 1_000_000, bodyChars: 2048 },
    noSecrets,
    noArrivals,
  );
  for (let seq = 1; seq <= 150; seq++) journal.add(record(seq, `body ${seq}`));
  let read = journal.read({});
  expect(read.total).toBe(150);
  expect(read.requests.map((entry) => entry.seq)).toEqual(
    Array.from({ length: 150 }, (_, index) => 150 - index),
  );
  for (let seq = 151; seq <= 450; seq++) journal.add(record(seq, `body ${seq}`));
  read = journal.read({});
  expect(read).toMatchObject({ total: 200, dropped: 250 });
  expect(read.requests.map((entry) => entry.seq)).toEqual(
    Array.from({ length: 200 }, (_, index) => 450 - index),
  );
  // Every field comes back as it went in.
  expect(read.requests.at(-1)).toMatchObject({ seq: 251, body: 'body 251', bodyBytes: 8 });
  const { realMs: _real, ...fields } = record(450, 'body 450');
  expect(read.requests[0]).toMatchObject({
    ...fields,
    breaks: [],
    at: new Date(fields.atMs).toISOString(),
  });
});

test('past maxBytes the oldest entries go, whatever their count', () => {
  // Each entry with a 2000-character body counts about 2.7 KB: 10 KB holds three of them.
  const journal = createJournal(
    { maxEntries: 1000, maxBytes: 10_000, bodyChars: 2048 },
    noSecrets,
    noArrivals,
  );
  for (let seq = 1; seq <= 50; seq++) journal.add(record(seq, 'x'.repeat(2000)));
  const read = journal.read({});
  expect(read.total).toBe(3);
  expect(read.dropped).toBe(47);
  expect(read.requests.map((entry) => entry.seq)).toEqual([50, 49, 48]);
  // The bound holds for what a reader is sent.
  expect(JSON.stringify(read.requests).length).toBeLessThan(10_000);
});

test('a fake keeps its journal within its bounds under a flood of large bodies', async () => {
  const fake = await createFake({ journal: { maxEntries: 500, maxBytes: 64 * 1024 } });
  // Many short fields, so the part kept is the body's start (not one long open string).
  const big = JSON.stringify({
    name: 'Rex',
    categoryId: 1,
    ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field${i}`, 'value'])),
  });
  for (let i = 0; i < 40; i++)
    await fake.fetch(`${api}/pets`, { method: 'POST', headers: free, body: big });
  const read = fake.control.requests();
  // Each entry counts its 2048 body characters, its other strings and 640: 64 KiB holds 23.
  expect(read.total + read.dropped).toBe(40);
  expect(read.total).toBe(23);
  // What a reader is sent is that, and the JSON escapes of the body's quotes.
  expect(JSON.stringify(read.requests).length).toBeLessThan(64 * 1024 * 1.25);
  for (const entry of read.requests) {
    expect(entry.body).toBe(big.slice(0, 2048));
    expect(entry.bodyTruncated).toBe(true);
    expect(entry.bodyBytes).toBe(big.length);
  }
  // A body past the fake's cap is not read at all: its size is unknown, its text absent.
  const capped = await createFake({ maxBodyBytes: 1024 });
  await capped.fetch(`${api}/pets`, { method: 'POST', headers: free, body: 'x'.repeat(4096) });
  expect(capped.control.requests().requests[0]).toMatchObject({
    status: 413,
    body: null,
    bodyBytes: null,
    bodyTruncated: true,
  });
});

test('a body carrying a secret is journalled redacted, short or cut, whatever the encoding', async () => {
  const fake = await createFake();
  const post = (body: string) =>
    fake.fetch(`${api}/pets`, {
      method: 'POST',
      headers: { ...free, 'X-Client-Id': 'leaky' },
      body,
    });
  // A known key inside a field, a credential-shaped field, and the key in base64 (a Basic header
  // pasted into the body).
  await post(
    JSON.stringify({
      name: 'free-demo-key',
      categoryId: 1,
      password: 'hunter2-hunter2',
      note: `Basic ${btoa('user:free-demo-key')}`,
    }),
  );
  // A long body whose secrets stand on both sides of the 2048th character: redacted whole, then
  // cut, so no part of a secret and no credential value that lost its closing quote is shown.
  const long = `{"name":"${'a'.repeat(2030)}free-demo-key${'b'.repeat(50)}","password":"${'p'.repeat(3000)}","categoryId":1}`;
  await post(long);
  const text = JSON.stringify(fake.control.requests());
  for (const leak of ['free-demo-key', 'hunter2', btoa('user:free-demo-key'), 'free-dem', 'pppp'])
    expect(text).not.toContain(leak);
  const [cut, short] = fake.control.requests().requests;
  expect(short?.body).toContain('"password":"[redacted]"');
  expect(short?.body).toContain('"name":"[redacted]"');
  // Redacted whole, then cut: the placeholder's start, no part of the key.
  expect(cut).toMatchObject({
    body: `{"name":"${'a'.repeat(2030)}[redacted`,
    bodyTruncated: true,
    bodyBytes: long.length,
  });
  // A credential whose value runs past the window redacted: open at the window's end, it is
  // left out from its opening quote rather than shown without the quote that would end it.
  await post(`{"categoryId":1,"password":"${'p'.repeat(10_000)}"}`);
  expect(fake.control.requests({ limit: 1 }).requests[0]?.body).toBe(
    '{"categoryId":1,"password":"',
  );
  // A body of short fields with a secret across the 2048th character: the secret is redacted
  // before the cut, which shows the placeholder's start and no part of the key.
  const fields = `{"note":"${'c'.repeat(2030)}","k":"free-demo-key","categoryId":1}`;
  await post(fields);
  const straddled = fake.control.requests({ limit: 1 }).requests[0];
  expect(straddled?.body).toBe(`{"note":"${'c'.repeat(2030)}","k":"[r`);
  expect(JSON.stringify(straddled)).not.toContain('free-');
});

test("the journal's session state goes out and back whole, and a state that is not one is refused", () => {
  const journal = createJournal(
    { maxEntries: 5, maxBytes: 100_000, bodyChars: 2048 },
    noSecrets,
    noArrivals,
  );
  for (let seq = 1; seq <= 7; seq++) journal.add(record(seq));
  const saved = structuredClone(journal.save());
  const other = createJournal(
    { maxEntries: 5, maxBytes: 100_000, bodyChars: 2048 },
    noSecrets,
    noArrivals,
  );
  const changesBefore = other.changes();
  other.load(saved)();
  expect(other.read({})).toEqual(journal.read({}));
  expect(other.changes()).toBeGreaterThan(changesBefore);
  // The next arrival is numbered after every kept one.
  expect(other.seqOf(1)).toBe(8);
  const bad = (value: unknown) => () => other.load(value);
  /** The saved journal with one column changed. */
  const changed = (field: string, values: unknown[]) => {
    const copy = structuredClone(saved) as { columns: Record<string, unknown[]> };
    copy.columns[field] = values;
    return copy;
  };
  const five = (value: unknown, rest: unknown) => [value, rest, rest, rest, rest];
  expect(bad({ columns: 'none', dropped: 0, arrivals: 0 })).toThrow(SessionStateError);
  expect(bad(changed('status', five('200', 200)))).toThrow(
    /status is not a whole number from 100 to 599/,
  );
  expect(bad(changed('status', [200]))).toThrow(/of one length/);
  expect(bad(changed('Retry-After', five(7, null)))).toThrow(
    /headers are not text under X-RateLimit-Limit/,
  );
  expect(bad(changed('atMs', five(1e20, 0)))).toThrow(/atMs is not a time in Date's range/);
  const big = createJournal(
    { maxEntries: 6, maxBytes: 100_000, bodyChars: 2048 },
    noSecrets,
    noArrivals,
  );
  for (let seq = 1; seq <= 6; seq++) big.add(record(seq));
  expect(bad(big.save())).toThrow(/more than 5 records/);
  // Refused loads changed nothing.
  expect(other.read({})).toEqual(journal.read({}));
});

test('a body sent again, and another of the same length, are each journalled as sent', async () => {
  // The step keeps the last short body's bytes and text (journal-step.ts): a repeat reuses the
  // text, and a body of the same length that differs in one byte, anywhere, must not.
  const fake = await createFake();
  const bodies = [
    '{"name":"Rex","categoryId":3}',
    '{"name":"Rex","categoryId":3}',
    '{"name":"Rey","categoryId":3}',
    '{"name":"Rey","categoryId":4}',
    '{"name":"Rey","categoryId":4}',
    '[name:"Rey","categoryId":4}',
  ];
  for (const body of bodies)
    await fake.fetch(`${api}/pets`, { method: 'POST', headers: free, body });
  const kept = fake.control.requests().requests.map((entry) => entry.body);
  expect(kept.reverse()).toEqual(bodies);
});
