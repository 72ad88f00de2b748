/**
 * What the tests of the fake's pacts share: a consumer suite recorded through `fake.fetch` and
 * written as a pact file, and the fake's HTTP door on a free loopback port for a verifier to
 * replay it against, closed after each test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { PactNames } from '../../mock/internal/entry.ts';
import { createFake, type FakeWithCore, listenHttp } from '../../mock/internal/entry.ts';

const api = 'http://127.0.0.1:4010/v1';
/** The Free demo key's header, as a consumer's tests send it. */
export const freeKey = { Authorization: 'Bearer free-demo-key' };

/** Sends one request of a consumer's suite to the fake (a path under `/v1`). */
export type SendToFake = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * A temporary folder for the file's pacts and the doors its tests open, both cleaned up by the
 * hooks this registers (call it at the top of a test file).
 */
export function pactFixture(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let recorded = 0;
  return {
    dir,
    /**
     * Runs a consumer's suite against a fresh fake, then asks the fake for the pact; answers
     * the file it wrote. The suite ends with a 429: the Free key's window set to one request.
     */
    async recordPact(names: PactNames, suite: (send: SendToFake) => Promise<void>) {
      const fake = await createFake();
      const send: SendToFake = (path, init) => fake.fetch(`${api}${path}`, init);
      await suite(send);
      // The spent window and the 429 in one minute, whenever the suite ended.
      fake.control.freezeTime(true);
      fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 50 } });
      await send('/pets', { headers: freeKey });
      recorded += 1;
      const file = join(dir, `pact-${recorded}.json`);
      writeFileSync(file, JSON.stringify(fake.control.pact(names)));
      return file;
    },
    /** Serves `fake` through its HTTP door on a free port; answers `http://127.0.0.1:<port>`. */
    async serve(fake: FakeWithCore): Promise<string> {
      const door = await listenHttp(fake.behaviour, {
        port: 0,
        origin: fake.config.origins[0] as string,
      });
      closers.push(() => door.close());
      return `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
    },
  };
}
