/**
 * `petstore-contract calibrate`: against fakes configured with other choices than the defaults,
 * it learns each choice; the profile it writes makes a fresh fake (createFake({ profile }), or
 * `npm start -- --profile`) compare equal; a fake left at its defaults compares different, and
 * `--compare` exits 1 saying what differs. Choices it cannot learn are listed, never guessed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { CreateFakeOptions } from '../mock/internal/entry.ts';
import { runCli } from '../test/support/contract-cli-process.ts';
import { freePort, startFakeProcess, stopFakeProcesses } from '../test/support/fake-process.ts';
import { calibrate } from './calibrate/calibrate.ts';
import { compareProfiles } from './calibrate/compare.ts';
import { createRunClient } from './runner/run-client.ts';
import { type FakeTarget, fakeFetchTarget, httpFakeTarget } from './targets/fake-target.ts';

/** Choices unlike every default of the fake. */
const otherChoices: CreateFakeOptions = {
  defaultStatus: 'pending',
  maxNameLength: 100,
  unknownFields: 'refuse',
  malformedIdStatus: 400,
  badQuery: 'clamp',
  retryAfterFormat: 'http-date',
  errorCodes: {
    not_found: 'PET_NOT_FOUND',
    unauthorized: 'AUTH_REQUIRED',
    invalid_body: 'BAD_PET',
  },
};

const open: FakeTarget[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((target) => target.close()));
  await stopFakeProcesses();
});

async function learn(fake: CreateFakeOptions, rateLimits = true) {
  const target = await fakeFetchTarget({ apiKey: 'free-demo-key', fake });
  open.push(target);
  return calibrate({
    client: createRunClient({ ...target, loopback: false }),
    writes: true,
    rateLimits,
  });
}

test('learns every choice a fake was configured with, within a Free key window', async () => {
  const { profile, keyRequests } = await learn(otherChoices);
  expect(profile.choices).toEqual({
    defaultStatus: 'pending',
    maxNameLength: 100,
    unknownFields: 'refuse',
    malformedIdStatus: 400,
    badQuery: 'clamp',
    retryAfterFormat: 'http-date',
    errorCodes: {
      unauthorized: 'AUTH_REQUIRED',
      not_found: 'PET_NOT_FOUND',
      invalid_id: 'invalid_id',
      invalid_body: 'BAD_PET',
      invalid_json: 'invalid_json',
      rate_limited: 'rate_limited',
    },
  });
  // Never guessed: the ban and the plan are listed with the reason.
  expect(profile.notLearned?.ban).toMatch(/would get the key banned/);
  expect(keyRequests).toBeLessThanOrEqual(60 + 2);
});

test('the profile it writes makes a fresh fake compare equal; the default fake differs on each choice', async () => {
  const server = await learn(otherChoices);
  const mirrored = await learn({ profile: server.profile });
  expect(compareProfiles(server.profile, mirrored.profile).differences).toEqual([]);
  const defaults = await learn({});
  const differences = compareProfiles(server.profile, defaults.profile).differences;
  expect(differences).toEqual(
    expect.arrayContaining([
      'defaultStatus: server "pending", fake "available"',
      'maxNameLength: server 100, fake 256',
      'unknownFields: server "refuse", fake "ignore"',
      'malformedIdStatus: server 400, fake 404',
      'badQuery: server "clamp", fake "refuse"',
      'retryAfterFormat: server "http-date", fake "seconds"',
      'errorCodes.not_found: server "PET_NOT_FOUND", fake "not_found"',
    ]),
  );
});

test('without writes or --rate-limits, the choices those need are listed as not learned', async () => {
  const target = await fakeFetchTarget({ apiKey: 'free-demo-key', fake: otherChoices });
  open.push(target);
  const { profile, requests } = await calibrate({
    client: createRunClient({ ...target, loopback: false }),
  });
  expect(Object.keys(profile.choices).sort()).toEqual([
    'badQuery',
    'errorCodes',
    'malformedIdStatus',
  ]);
  expect(profile.notLearned?.defaultStatus).toMatch(/pass --allow-writes/);
  expect(profile.notLearned?.retryAfterFormat).toMatch(/pass --rate-limits/);
  expect(requests).toBeLessThanOrEqual(5);
});

test('CLI: calibrate --out writes a profile that npm start --profile answers like, and --compare says what differs', async () => {
  const server = await httpFakeTarget({
    apiKey: 'free-demo-key',
    virtualTime: false,
    fake: otherChoices,
  });
  open.push(server);
  const dir = mkdtempSync(join(tmpdir(), 'calibrate-'));
  const file = join(dir, 'staging.profile.json');
  const env = { PETSTORE_API_KEY: 'free-demo-key' };
  const learned = await runCli(['calibrate', '--base-url', server.baseUrl, '--out', file], env);
  expect(learned.stderr).toBe('');
  expect(learned.code).toBe(0);
  expect(learned.stdout).toContain(`profile written to ${file}`);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { choices: Record<string, unknown> };
  expect(profile.choices.defaultStatus).toBe('pending');

  // The fake started as users start it, with the profile, answers the probes the same way.
  const port = await freePort();
  await startFakeProcess(['--port', String(port), '--no-staging', '--quiet', '--profile', file]);
  const relearned = await runCli(
    ['calibrate', '--base-url', `http://127.0.0.1:${port}/v1`, '--out', join(dir, 'again.json')],
    env,
  );
  expect(relearned.code).toBe(0);
  const again = JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')) as { choices: unknown };
  expect(again.choices).toEqual(profile.choices);

  const same = await runCli(
    ['calibrate', '--base-url', server.baseUrl, '--compare', '--fake-profile', file],
    env,
  );
  expect(same.code).toBe(0);
  expect(same.stdout).toMatch(
    /the fake answers as the server does on all \d+ choices both could learn/,
  );
  const drift = await runCli(['calibrate', '--base-url', server.baseUrl, '--compare'], env);
  expect(drift.code).toBe(1);
  expect(drift.stdout).toContain('differs: defaultStatus: server "pending", fake "available"');
  expect(drift.stdout).toContain('not compared: retryAfterFormat');
  for (const run of [learned, relearned, same, drift])
    expect(run.stdout).not.toContain('free-demo-key');
});

test('npm start --profile refuses a bad profile, naming the field', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibrate-'));
  const file = join(dir, 'bad.json');
  writeFileSync(
    file,
    JSON.stringify({ format: 'petstore-profile/1', choices: { badQuery: 'sometimes' } }),
  );
  const port = await freePort();
  await expect(startFakeProcess(['--port', String(port), '--profile', file])).rejects.toThrow(
    /--profile: choices\.badQuery must be one of "refuse", "clamp", "ignore"; got "sometimes"/,
  );
});
