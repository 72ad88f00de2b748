/**
 * A tab reloaded as the leading tab's renderer crashes (CDP `Page.crash`, a few milliseconds
 * before or after the reload) is ready within 10 s, every acknowledged pet is read back and none
 * is stored twice but a told possible copy; on the demo page, on the create-vite app of
 * docs/app.md with docs/browser.md's `fake-worker.js`, and on that app as docs/app.md writes it
 * (msw's own worker), where a load the crash caught ends with one more reload.
 * test/support/leader-crash-rounds.ts runs the rounds: each crashes the renderer that runs the
 * service worker too, and the test fails if none did. Here two rounds a site (one in each order),
 * one on the app as docs/app.md writes it (its tab waits 4 s before the second reload);
 * `node scripts/leader-crash-rounds.ts` runs twenty in a row. Seeded: LEADER_CRASH_SEED=<n>.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleDemo, demoFiles } from '../../../scripts/build-browser.ts';
import type { ConsumerApp } from '../../../scripts/consumer-app.ts';
import { createGuideApp, startDevServer, useFakeWorker } from '../../../scripts/guide-app.ts';
import { chromiumPath } from '../../../test/support/headless-chromium.ts';
import {
  type CrashSite,
  leaderCrashMetTheFault,
  leaderCrashProblems,
  leaderCrashSummary,
  runLeaderCrashRounds,
} from '../../../test/support/leader-crash-rounds.ts';
import { type StaticServer, serveStatic } from '../../../test/support/static-server.ts';

const seed = Number(process.env.LEADER_CRASH_SEED ?? 53);

let demo: StaticServer;
let app: ConsumerApp;

beforeAll(async () => {
  demo = await serveStatic(demoFiles(await bundleDemo()));
  app = await createGuideApp();
}, 180_000);

afterAll(async () => {
  await demo?.close();
  app?.remove();
});

/** Runs `rounds` rounds on `site` on a fresh profile and holds the run to every promise. */
async function holds(site: CrashSite, rounds: number): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), 'petstore-leader-crash-'));
  try {
    const run = await runLeaderCrashRounds({
      chromium: chromiumPath('leader crash test'),
      profile,
      site,
      seed,
      rounds,
      log: (line) => console.log(line),
    });
    const summary = `${leaderCrashSummary(run)} (LEADER_CRASH_SEED=${seed} replays it)`;
    console.log(`leader crash: ${summary}`);
    expect(leaderCrashProblems(run), summary).toEqual([]);
    expect(leaderCrashMetTheFault(run), `no crash took the service worker down: ${summary}`).toBe(
      true,
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

it(`the demo page: a tab reloaded as the leading tab's renderer crashes is ready within 10 s, in both orders, with creates in flight (seed ${seed})`, async () => {
  await holds({ name: 'demo', url: `${demo.origin}/?quiet` }, 2);
}, 90_000);

// The app as docs/app.md writes it first: the next test changes it.
it(`the app of docs/app.md on msw's own worker: a tab reloaded as the leading tab's renderer crashes is ready within 10 s, after one more reload where the crash caught its load (seed ${seed})`, async () => {
  const dev = await startDevServer(app);
  try {
    await holds({ name: 'app', url: dev.url, secondReloadAfterMs: 4_000 }, 1);
  } finally {
    dev.stop();
  }
}, 120_000);

it(`the app of docs/app.md behind docs/browser.md's fake-worker.js: a tab reloaded as the leading tab's renderer crashes is ready within 10 s, in both orders (seed ${seed})`, async () => {
  useFakeWorker(app);
  const dev = await startDevServer(app);
  try {
    await holds({ name: 'app-fake-worker', url: dev.url }, 2);
  } finally {
    dev.stop();
  }
}, 120_000);
