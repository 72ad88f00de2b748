/**
 * A renderer crash during a page load, as a developer's busy browser meets it: four tabs of one
 * persistent Chromium profile create pets (chaos latency of 0-250 ms on createPet, so creates are
 * in flight) while one tab reloads and the renderer of the tab that runs the shared fake crashes
 * (CDP `Page.crash`) within a few milliseconds of that reload, in either order. Each round opens
 * the leading tab first, with the service worker stopped, so that Chromium starts the worker
 * again in that tab's renderer and the crash takes the worker down with it.
 *
 * What a round must show (docs/browser.md, "A renderer crash during a page load"):
 * - every tab is ready again within 10 s of the fault: its page's fake set and a `fetch` of the
 *   API answered through the worker. A tab whose renderer crashed too ("Aw, Snap") is reloaded
 *   once, as a user would; on a site given `secondReloadAfterMs`, a tab whose load has not ended
 *   by then is reloaded once more (what that site's guide tells a user to do);
 * - and over the whole run: every acknowledged create (a 201 a page saw, through the worker or
 *   `fake.fetch`) is read back under its id and name; no create carrying an Idempotency-Key is
 *   stored twice; an unkeyed one stored twice only where a tab told a possible copy
 *   (request-copies.ts).
 * The rounds' choices (the gap between reload and crash, how many creates, when the fault comes)
 * come from a seeded PRNG; the seed names the run. The orders alternate, reload first.
 */
import type { CDPSession, Page } from 'playwright-core';
import { type ChromiumProcess, startChromium } from './chromium-process.ts';
import { storedPetsAfterSeed } from './stored-pets.ts';

const api = 'http://127.0.0.1:4010/v1';
/** The Enterprise key: its 10,000 a minute leave every round's creates and reads unthrottled. */
const auth = 'Bearer enterprise-demo-key';
/** How long every tab has, from the fault, to be ready again. */
const readyWithinMs = 10_000;
const tabsPerRound = 4;
/** What a tab says on the console when a create came twice (request-copies.ts). */
const copyTold = 'came again from this tab';
/** What a tab says on the console when its requests do not reach the worker (worker-check.ts). */
const workerMissing = "requests do not reach msw's service worker";
/** A mark on a tab's document before the fault: a document without it is a new one. */
const oldDocument = 'petstoreBeforeFault';

/** A page of the fake the rounds run on: the demo page, or an app's. */
export interface CrashSite {
  /** Names the site in the pets' names and the report. */
  readonly name: string;
  /** The page every tab loads. */
  readonly url: string;
  /**
   * A tab whose load has not ended this long after the fault is reloaded once more, as the
   * site's guide tells a user to; `undefined`: never (every tab must be ready without it).
   */
  readonly secondReloadAfterMs?: number;
}

/** What a run needs. */
export interface LeaderCrashOptions {
  /** The Chromium executable. */
  readonly chromium: string;
  /** A fresh profile folder: the run's one persistent profile. */
  readonly profile: string;
  readonly site: CrashSite;
  readonly seed: number;
  readonly rounds: number;
  /** Where each round's line goes (the console). */
  readonly log?: (line: string) => void;
}

/** One round, as it went. */
export interface CrashRound {
  readonly round: number;
  readonly order: 'reload-first' | 'crash-first';
  /** Milliseconds between the first fault and the second. */
  readonly gapMs: number;
  /** Whether the service worker stopped with the crash (it ran in the crashed renderer). */
  readonly workerStopped: boolean;
  /** Other tabs whose renderer crashed with the leading tab's (and were reloaded). */
  readonly alsoCrashed: number;
  /** Tabs reloaded once more because their load had not ended (`secondReloadAfterMs`). */
  readonly secondReloads: number;
  /** Tabs that said the browser left them without the worker (and reloaded themselves). */
  readonly withoutWorker: number;
  /** From the fault until the last tab was ready, in milliseconds. */
  readonly readyAfterMs: number;
  /** What went wrong in the round: a tab not ready in time, and what it showed. */
  readonly problems: readonly string[];
}

/** One create a page sent. */
interface Create {
  readonly name: string;
  readonly keyed: boolean;
  /** The id of a 201 the page saw; `undefined` when it saw no answer (its tab went, or the fetch failed). */
  readonly id: number | undefined;
  readonly status: number | undefined;
}

/** A whole run: its rounds, its creates, and what a fresh tab read back. */
export interface LeaderCrashRun {
  readonly seed: number;
  readonly site: string;
  readonly rounds: readonly CrashRound[];
  readonly creates: readonly Create[];
  readonly stored: readonly { readonly id: number; readonly name: string }[];
  /** Possible copies the tabs told on the console (request-copies.ts). */
  readonly toldCopies: number;
  /** Tabs that said, before any fault, that their requests do not reach the worker. */
  readonly falseAlarms: number;
  readonly durationMs: number;
}

/** mulberry32: a small seeded PRNG, so a seed names one sequence of rounds. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects after `ms` with `what`, unless `promise` settles first. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once the page's fake is set (in a new document, for a tab that reloads) and a `fetch`
 * of the API is answered through the worker; a page that is not there yet (its fake not set, its
 * fetch failing while it reloads itself) is asked again until `timeoutMs` has passed.
 */
async function answers(page: Page, timeoutMs: number, newDocument: boolean): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'its fake was never set';
  while (performance.now() < deadline) {
    const seen = page
      .evaluate(
        async ({ api, auth, newDocument, oldDocument }) => {
          if (
            !('fake' in window) ||
            window.fake === undefined ||
            (newDocument && oldDocument in window)
          )
            return 'its fake is not set';
          try {
            const response = await fetch(`${api}/pets?limit=1`, {
              headers: { Authorization: auth },
            });
            return response.status === 200
              ? 'ready'
              : `its fetch of the API answered ${response.status}`;
          } catch (error) {
            return `its fetch of the API failed (${String(error)})`;
          }
        },
        { api, auth, newDocument, oldDocument },
      )
      .catch((error: unknown) => `it answers nothing (${String(error).split('\n')[0]})`);
    last = await within(seen, deadline - performance.now(), last).catch(() => last);
    if (last === 'ready') return;
    await sleep(50);
  }
  throw new Error(last);
}

/** What a tab that is not ready shows: its status line and whether its page has a worker. */
async function describeTab(page: Page): Promise<string> {
  const seen = page.evaluate(() => ({
    status: document.getElementById('status')?.textContent ?? document.title,
    fake: 'fake' in window,
    controlled: navigator.serviceWorker.controller !== null,
  }));
  return within(seen, 1_000, 'no answer')
    .then((state) => JSON.stringify(state))
    .catch((error: unknown) => `a page that answers nothing (${String(error).split('\n')[0]})`);
}

/** A tab of a round, with what happened to it. */
interface Tab {
  readonly page: Page;
  readonly role: string;
  crashed: boolean;
  /** How often it said its requests do not reach the worker. */
  withoutWorker: number;
  /** Its requests that failed this round, with the browser's reason. */
  readonly failed: string[];
}

/** Runs `options.rounds` rounds of the fault on one profile; resolves with what it saw. */
export async function runLeaderCrashRounds(options: LeaderCrashOptions): Promise<LeaderCrashRun> {
  const { site, seed, log = () => {} } = options;
  const random = prng(seed);
  const started = performance.now();
  const creates: Promise<Create>[] = [];
  const rounds: CrashRound[] = [];
  let toldCopies = 0;
  let falseAlarms = 0;
  let made = 0;
  const browser: ChromiumProcess = await startChromium(options.chromium, options.profile);

  const open = async (role: string, before?: (cdp: CDPSession) => Promise<void>) => {
    const page = await browser.context.newPage();
    const tab: Tab = { page, role, crashed: false, withoutWorker: 0, failed: [] };
    page.on('requestfailed', (request) =>
      tab.failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`),
    );
    page.on('crash', () => {
      tab.crashed = true;
    });
    page.on('console', (line) => {
      if (line.text().includes(copyTold)) toldCopies += 1;
      if (line.text().includes(workerMissing)) tab.withoutWorker += 1;
    });
    if (before !== undefined) await before(await browser.context.newCDPSession(page));
    await page.goto(site.url, { timeout: 15_000 });
    await answers(page, 15_000, false);
    return tab;
  };
  /** A create from the page: through the worker (`fetch`), or past it (`fake.fetch`). */
  const create = (tab: Tab, through: 'fetch' | 'fake.fetch'): Promise<Create> => {
    made += 1;
    const name = `${site.name}-s${seed}-${made}`;
    const keyed = made % 2 === 1;
    return tab.page
      .evaluate(
        async ({ api, auth, name, keyed, through }) => {
          const send = through === 'fetch' ? fetch : window.fake?.fetch;
          if (send === undefined) throw new Error('the page has no fake');
          const response = await send(`${api}/pets`, {
            method: 'POST',
            headers: {
              Authorization: auth,
              'Content-Type': 'application/json',
              ...(keyed ? { 'Idempotency-Key': `create-${name}` } : {}),
            },
            body: JSON.stringify({ name, categoryId: 53, status: 'pending' }),
          });
          const body = (await response.json()) as { id?: number };
          return { status: response.status, id: response.status === 201 ? body.id : undefined };
        },
        { api, auth, name, keyed, through },
      )
      .then(
        ({ status, id }) => ({ name, keyed, status, id }),
        () => ({ name, keyed, status: undefined, id: undefined }),
      );
  };

  try {
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? 'reload-first' : 'crash-first';
      const gapMs = Math.floor(random() * 11);
      // The worker is stopped before the leading tab loads, so that it starts again in that
      // tab's renderer: the renderer the crash takes down.
      const leader = await open('leading', async (cdp) => {
        await cdp.send('ServiceWorker.enable');
        await cdp.send('ServiceWorker.stopAllWorkers');
        await cdp.detach();
      });
      if (round === 0)
        await leader.page.evaluate(async () => {
          await window.fake?.control.reset();
          await window.fake?.control.setChaos({
            seed: 53,
            rules: [
              {
                operationId: 'createPet',
                latency: { distribution: 'uniform', minMs: 0, maxMs: 250 },
              },
            ],
          });
        });
      const tabs = [leader];
      for (let i = 1; i < tabsPerRound; i++) tabs.push(await open(i === 1 ? 'reloading' : 'other'));
      const [, reloading, watcher] = tabs as [Tab, Tab, Tab, Tab];
      for (const tab of tabs) {
        falseAlarms += tab.withoutWorker;
        tab.withoutWorker = 0;
      }
      if (!(await leader.page.evaluate(() => window.fake?.status().runsHere === true)))
        throw new Error(`round ${round}: the tab opened first does not run the fake`);
      // When the worker stops, as a tab that stays sees it.
      const workerEvents = await browser.context.newCDPSession(watcher.page);
      let stoppedAt = Number.NEGATIVE_INFINITY;
      workerEvents.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        if (versions.some((version) => version.runningStatus !== 'running'))
          stoppedAt = performance.now();
      });
      await workerEvents.send('ServiceWorker.enable');

      for (const tab of tabs)
        for (let i = 1 + Math.floor(random() * 4); i > 0; i--)
          creates.push(create(tab, random() < 0.5 ? 'fetch' : 'fake.fetch'));
      await sleep(10 + Math.floor(random() * 90));

      for (const tab of tabs)
        await tab.page.evaluate((mark) => Object.assign(window, { [mark]: true }), oldDocument);
      const crashCdp = await browser.context.newCDPSession(leader.page);
      const crash = () => void crashCdp.send('Page.crash').catch(() => {});
      // Its end is read from the page (a new document, ready): a reload that never ends is
      // what the round looks for.
      const reload = () => void reloading.page.reload({ timeout: readyWithinMs }).catch(() => {});
      const fault = performance.now();
      if (order === 'reload-first') {
        reload();
        await sleep(gapMs);
        crash();
      } else {
        crash();
        await sleep(gapMs);
        reload();
      }
      await leader.page.waitForEvent('crash', { timeout: 5_000 }).catch(() => {});
      const deadline = fault + readyWithinMs;
      let secondReloads = 0;
      let alsoCrashed = 0;
      const problems: string[] = [];
      const ready = async (tab: Tab) => {
        let newDocument = tab === reloading;
        let reloadedAgain = false;
        for (;;) {
          if (tab.crashed) {
            // "Aw, Snap": the user reloads it once.
            alsoCrashed += 1;
            tab.crashed = false;
            newDocument = true;
            void tab.page.reload({ timeout: readyWithinMs }).catch(() => {});
          }
          const until =
            site.secondReloadAfterMs !== undefined && !reloadedAgain && newDocument
              ? fault + site.secondReloadAfterMs
              : deadline;
          try {
            await answers(tab.page, until - performance.now(), newDocument);
            return;
          } catch (error) {
            if (tab.crashed) continue;
            if (until >= deadline) throw error;
            // The load has not ended: the site's guide says to reload once more. Playwright's
            // reload would wait on the load still pending; the DevTools command replaces it.
            reloadedAgain = true;
            secondReloads += 1;
            const cdp = await browser.context.newCDPSession(tab.page);
            await cdp.send('Page.reload', {});
            await cdp.detach().catch(() => {});
          }
        }
      };
      await Promise.all(
        tabs.slice(1).map((tab) =>
          ready(tab).catch(async (error: unknown) => {
            problems.push(
              `the ${tab.role} tab was not ready ${readyWithinMs / 1000} s after the fault (${String(error).split('\n')[0]}); it shows ${await describeTab(tab.page)}; its failed requests: ${tab.failed.join(', ') || 'none'}`,
            );
          }),
        ),
      );
      const readyAfterMs = Math.round(performance.now() - fault);
      const workerStopped = stoppedAt >= fault;
      await workerEvents.detach().catch(() => {});
      // The round's creates settle (a tab that went fails its own) before the tabs close.
      await within(Promise.all(creates), 15_000, 'creates still unanswered 15 s after the fault')
        .then(() => {})
        .catch((error: unknown) => {
          problems.push(String(error));
        });
      const withoutWorker = tabs.reduce((sum, tab) => sum + tab.withoutWorker, 0);
      rounds.push({
        round,
        order,
        gapMs,
        workerStopped,
        alsoCrashed,
        secondReloads,
        withoutWorker,
        readyAfterMs,
        problems,
      });
      log(
        `${site.name} round ${round} (seed ${seed}): ${order}, ${gapMs} ms apart; the worker ${workerStopped ? 'stopped with the crash' : 'ran elsewhere'}; ${alsoCrashed} other tab(s) crashed too, ${withoutWorker} left without the worker, ${secondReloads} reloaded a second time; every tab ready after ${readyAfterMs} ms${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`,
      );
      for (const tab of tabs) await tab.page.close().catch(() => {});
    }
    const settled = await Promise.all(creates);
    const reader = await open('reading');
    const last = Math.max(0, ...settled.map((c) => c.id ?? 0));
    // Every pet from the first after the seed's 180 to past the last acknowledged one, by id.
    const stored = await storedPetsAfterSeed(reader.page, { api, auth, last });
    return {
      seed,
      site: site.name,
      rounds,
      creates: settled,
      stored,
      toldCopies,
      falseAlarms,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    await browser.kill();
  }
}

/** The names stored under more than one id, with their ids. */
function storedTwice(run: LeaderCrashRun): [string, number[]][] {
  const ids = new Map<string, number[]>();
  for (const pet of run.stored) ids.set(pet.name, [...(ids.get(pet.name) ?? []), pet.id]);
  return [...ids].filter(([, each]) => each.length > 1);
}

/** What a run broke of its promises, one line each (empty when it kept them all). */
export function leaderCrashProblems(run: LeaderCrashRun): string[] {
  const problems = run.rounds.flatMap((round) =>
    round.problems.map((problem) => `round ${round.round} (${round.order}): ${problem}`),
  );
  const byId = new Map(run.stored.map((pet) => [pet.id, pet.name]));
  for (const c of run.creates)
    if (c.id !== undefined && byId.get(c.id) !== c.name)
      problems.push(`${c.name}, acknowledged as id ${c.id}, is not read back`);
  const keyed = new Set(run.creates.filter((c) => c.keyed).map((c) => c.name));
  const twice = storedTwice(run);
  for (const [name, each] of twice)
    if (keyed.has(name))
      problems.push(`${name}, sent with an Idempotency-Key, is stored ${each.length} times`);
  const unkeyedCopies = twice
    .filter(([name]) => !keyed.has(name))
    .reduce((sum, [, each]) => sum + each.length - 1, 0);
  if (unkeyedCopies > run.toldCopies)
    problems.push(
      `${unkeyedCopies} unkeyed create(s) stored more than once, but only ${run.toldCopies} told as possible copies`,
    );
  const refused = run.creates.filter((c) => c.status !== undefined && c.status !== 201);
  if (refused.length > 0)
    problems.push(
      `creates answered ${refused.map((c) => `${c.status} (${c.name})`).join(', ')}: every create a page saw answered must be a 201`,
    );
  if (run.falseAlarms > 0)
    problems.push(
      `${run.falseAlarms} tab(s) said their requests do not reach the worker before any fault`,
    );
  return problems;
}

/** One line that sums a run up: rounds, the faults they met, creates and copies. */
export function leaderCrashSummary(run: LeaderCrashRun): string {
  const acknowledged = run.creates.filter((c) => c.id !== undefined).length;
  const stopped = run.rounds.filter((round) => round.workerStopped).length;
  const slowest = Math.max(0, ...run.rounds.map((round) => round.readyAfterMs));
  const count = (key: 'alsoCrashed' | 'secondReloads' | 'withoutWorker') =>
    run.rounds.reduce((sum, round) => sum + round[key], 0);
  const twice = storedTwice(run).length;
  return `${run.site}, seed ${run.seed}: ${run.rounds.length} rounds in ${Math.round(run.durationMs / 1000)} s; the worker stopped with the crash in ${stopped}; ${count('alsoCrashed')} other tab(s) crashed too, ${count('withoutWorker')} left without the worker (reloaded themselves), ${count('secondReloads')} reloaded a second time; the slowest round was ready after ${slowest} ms; ${run.creates.length} creates, ${acknowledged} acknowledged, ${run.stored.length} pets stored, ${twice} name(s) stored twice, ${run.toldCopies} possible copies told`;
}

/** Whether a run met the fault it is about: the worker stopped with the crash in some round. */
export function leaderCrashMetTheFault(run: LeaderCrashRun): boolean {
  return run.rounds.some((round) => round.workerStopped);
}
