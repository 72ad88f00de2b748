/**
 * The window every realistic server's limiter counts in. The plans' limits (60, 300) stay as the
 * interface states them, but the window lasts seconds, not a minute: a harness run plans from the
 * headers, so a test that spends a window and honours its Retry-After finishes in seconds.
 */

/**
 * Window length, in ms: long enough that the conformance checks (about 60 requests) finish in the
 * window the preflight opened even on a busy machine (with 5 s, a run on a heavily loaded
 * machine can see its window roll over mid-run, past what the harness's budget covers), short
 * enough that a `--rate-limits` run's wait stays short.
 */
export const windowMs = 10_000;
