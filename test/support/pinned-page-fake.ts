/**
 * For the browser tests: resets the fake a page meets and pins its clock. The clock is real by
 * default, and a minute window rolling over mid-test would reset the per-minute count the tests
 * read, so it is set to the start of the next minute, frozen.
 */
import type { Page } from 'playwright-core';

/** Resets the page's fake (every tab's, when shared) and freezes its clock at the next minute. */
export async function resetWithPinnedClock(page: Page): Promise<void> {
  const nextMinute = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
  await page.evaluate(async (epochMs) => {
    await window.fake?.control.reset();
    await window.fake?.control.freezeTime(true);
    await window.fake?.control.setTime(epochMs);
  }, nextMinute);
}
