/**
 * A renderer crash during a page load, round after round (test/support/leader-crash-rounds.ts):
 * a tab reloads and the leading tab's renderer crashes within a few milliseconds of it, in both
 * orders, with creates in flight, on the demo page and on the create-vite app of docs/app.md.
 * Prints a line a round, then each site's summary and what it broke; exits 1 when any site broke
 * a promise.
 *   node scripts/leader-crash-rounds.ts [--seed 53] [--rounds 20] [--site demo,app,app-fake-worker]
 * Seeded: `--seed` names every round's choices, and each site's run is printed with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findChromium } from '../test/support/headless-chromium.ts';
import {
  type CrashSite,
  leaderCrashProblems,
  leaderCrashSummary,
  runLeaderCrashRounds,
} from '../test/support/leader-crash-rounds.ts';
import { serveStatic } from '../test/support/static-server.ts';
import { bundleDemo, demoFiles } from './build-browser.ts';
import { createGuideApp, startDevServer, useFakeWorker } from './guide-app.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '53' },
    rounds: { type: 'string', default: '20' },
    site: { type: 'string', default: 'demo' },
  },
});
const seed = Number(values.seed);
const rounds = Number(values.rounds);
const chromiumFound = findChromium();
if ('problem' in chromiumFound) throw new Error(`leader-crash-rounds: ${chromiumFound.problem}`);
console.log(chromiumFound.note);
const chromium = chromiumFound.path;
console.log(
  `leader-crash-rounds: seed ${seed} (--seed ${seed} replays it), ${rounds} rounds a site`,
);

const chosen = values.site.split(',');
const known = ['demo', 'app', 'app-fake-worker'];
for (const name of chosen)
  if (!known.includes(name))
    throw new Error(`leader-crash-rounds: --site takes ${known.join(', ')}; got "${name}"`);

/** Runs the rounds on one site, on a fresh profile; says whether it kept every promise. */
async function runSite(site: CrashSite): Promise<boolean> {
  const profile = mkdtempSync(join(tmpdir(), 'petstore-leader-crash-'));
  try {
    const run = await runLeaderCrashRounds({
      chromium,
      profile,
      site,
      seed,
      rounds,
      log: (line) => console.log(line),
    });
    const problems = leaderCrashProblems(run);
    console.log(`leader-crash-rounds: ${leaderCrashSummary(run)}`);
    for (const problem of problems) console.log(`  PROBLEM: ${problem}`);
    return problems.length === 0;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const results: boolean[] = [];
if (chosen.includes('demo')) {
  const demo = await serveStatic(demoFiles(await bundleDemo()));
  try {
    results.push(await runSite({ name: 'demo', url: `${demo.origin}/?quiet` }));
  } finally {
    await demo.close();
  }
}
if (chosen.includes('app') || chosen.includes('app-fake-worker')) {
  const made = performance.now();
  const app = await createGuideApp();
  console.log(
    `leader-crash-rounds: the app of docs/app.md made in ${Math.round((performance.now() - made) / 1000)} s at ${app.dir}`,
  );
  try {
    if (chosen.includes('app')) {
      const dev = await startDevServer(app);
      try {
        // docs/browser.md: with msw's own worker, a load the crash caught needs one more reload.
        results.push(await runSite({ name: 'app', url: dev.url, secondReloadAfterMs: 4_000 }));
      } finally {
        dev.stop();
      }
    }
    if (chosen.includes('app-fake-worker')) {
      useFakeWorker(app);
      const dev = await startDevServer(app);
      try {
        results.push(await runSite({ name: 'app-fake-worker', url: dev.url }));
      } finally {
        dev.stop();
      }
    }
  } finally {
    app.remove();
  }
}
console.log(
  `leader-crash-rounds: seed ${seed}: ${results.every(Boolean) ? 'every site kept every promise' : 'a site broke a promise (PROBLEM lines above)'}`,
);
process.exitCode = results.every(Boolean) ? 0 : 1;
