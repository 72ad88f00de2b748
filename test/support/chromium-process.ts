/**
 * For the browser tests: a headless Chromium started as its own process on a persistent profile
 * and driven over CDP (playwright-core's connectOverCDP), so a test can end it as a user's browser
 * ends: closed cleanly (CDP `Browser.close`) or killed (SIGKILL of the browser process, as an OOM
 * killer or a power cut would). Playwright's launchPersistentContext hides the process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { chromiumArgs } from './headless-chromium.ts';

/** A Chromium process on a profile, and playwright's view of it. */
export interface ChromiumProcess {
  readonly browser: Browser;
  /** The profile's default context: its tabs share the profile's storage and service workers. */
  readonly context: BrowserContext;
  /** Closes the browser as its window's close button does, and waits for the process to end. */
  close(): Promise<void>;
  /** Kills the browser process (SIGKILL), and waits for it to end. */
  kill(): Promise<void>;
}

/** How long Chromium may take to say where its DevTools listen. */
const startTimeoutMs = 20_000;

async function ended(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await once(child, 'exit');
  clearTimeout(timer);
}

/** Starts Chromium at `executablePath` on the profile folder `profile`. */
export async function startChromium(
  executablePath: string,
  profile: string,
): Promise<ChromiumProcess> {
  const child = spawn(
    executablePath,
    [
      ...chromiumArgs(),
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `chromium-process: no DevTools endpoint in ${startTimeoutMs} ms: ${seen.slice(-500)}`,
        ),
      );
    }, startTimeoutMs);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // Only the tail is kept: Chromium may write a lot to stderr over a long test.
      seen = (seen + chunk).slice(-4000);
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `chromium-process: Chromium exited (${code ?? signal}) before it listened: ${seen.slice(-500)}`,
        ),
      );
    });
  });
  const browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0];
  if (context === undefined)
    throw new Error('chromium-process: the browser has no default context');
  return {
    browser,
    context,
    async close() {
      const session = await browser.newBrowserCDPSession();
      // The browser goes before it can answer: the call's own failure is expected.
      await session.send('Browser.close').catch(() => {});
      await ended(child, 15_000);
    },
    async kill() {
      child.kill('SIGKILL');
      await ended(child, 15_000);
      await browser.close().catch(() => {});
    },
  };
}
