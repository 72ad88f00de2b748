/** Time as the harness sees it: real by default; a fake target can lend its virtual clock. */

/** Reads the time and waits. */
export interface HarnessClock {
  /** Epoch milliseconds on the target's clock. */
  now(): number;
  /** Waits `ms` milliseconds (a virtual clock just moves forward). */
  sleep(ms: number): Promise<void>;
}

/** Real time and real waiting. */
export const realClock: HarnessClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
