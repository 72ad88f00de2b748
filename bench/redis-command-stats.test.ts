/**
 * The round-trip count's pure parts: commandstats read and diffed per request, a MONITOR sample
 * split by source, the two put together, and a counter of INFO, on text shaped as Redis 7.0
 * writes it.
 */
import { expect, test } from 'vitest';
import {
  callsPerRequest,
  infoCounter,
  parseCommandStats,
  parseMonitor,
  roundTripsPerRequest,
} from './redis-command-stats.ts';

const stats = (evalsha: number, hmget: number, info: number) =>
  [
    '# Commandstats',
    `cmdstat_evalsha:calls=${evalsha},usec=21,usec_per_call=7.00,rejected_calls=0,failed_calls=0`,
    `cmdstat_hmget:calls=${hmget},usec=31,usec_per_call=3.88,rejected_calls=0,failed_calls=0`,
    `cmdstat_info:calls=${info},usec=43,usec_per_call=43.00,rejected_calls=0,failed_calls=0`,
    'cmdstat_config|resetstat:calls=1,usec=61,usec_per_call=61.00,rejected_calls=0,failed_calls=0',
    '',
  ].join('\r\n');

test('commandstats diffed per request, the bench INFO and commands that did not run left out', () => {
  const before = parseCommandStats(stats(10, 20, 1));
  expect(before.get('config|resetstat')).toBe(1);
  const after = parseCommandStats(stats(210, 620, 2));
  expect(callsPerRequest(before, after, 100)).toEqual({ evalsha: 2, hmget: 6 });
});

test('a command first seen in the second reading counts from zero', () => {
  const before = parseCommandStats('cmdstat_get:calls=5,usec=1,usec_per_call=0.20\r\n');
  const after = parseCommandStats(
    'cmdstat_get:calls=5,usec=1,usec_per_call=0.20\r\ncmdstat_hgetall:calls=50,usec=9,usec_per_call=0.18\r\n',
  );
  expect(callsPerRequest(before, after, 50)).toEqual({ hgetall: 1 });
});

test('MONITOR lines counted by command and source, a partial last line left out', () => {
  const stream = [
    '+OK',
    '+1796197387.355123 [0 127.0.0.1:55412] "EVALSHA" "abc" "2" "k1" "k2"',
    '+1796197387.355200 [0 lua] "HMGET" "k1" "epoch"',
    '+1796197387.355210 [0 lua] "HMGET" "k2" "n"',
    '+1796197387.355300 [0 127.0.0.1:55412] "HMGET" "k3" "x"',
    '+1796197387.355400 [0 127.0.0.1:55413] "HGETALL" "rec',
  ].join('\r\n');
  const sources = parseMonitor(stream);
  expect(Object.fromEntries(sources)).toEqual({
    evalsha: { client: 1, script: 0 },
    hmget: { client: 1, script: 2 },
  });
});

test('round trips: each command by its client share, an unsampled command counted whole', () => {
  const sources = new Map([
    ['evalsha', { client: 4, script: 0 }],
    ['hmget', { client: 1, script: 3 }],
    ['time', { client: 0, script: 2 }],
  ]);
  expect(roundTripsPerRequest({ evalsha: 2, hmget: 4, time: 1, hgetall: 1 }, sources)).toBe(4);
});

test('a counter read from INFO text, NaN when the field is absent', () => {
  const info = '# Stats\r\ntotal_commands_processed:81\r\ntotal_reads_processed:640\r\n';
  expect(infoCounter(info, 'total_reads_processed')).toBe(640);
  expect(infoCounter(info, 'total_writes_processed')).toBeNaN();
});
