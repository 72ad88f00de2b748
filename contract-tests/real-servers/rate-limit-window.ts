/**
 * The window every realistic server's limiter counts in. The plans' limits (60, 300) stay as the
 * interface states them, but the window lasts seconds, not a minute: a harness run plans from the
 * headers, so a test that spends a window and honours its Retry-After finishes in seconds.
 */

/**
 * Window length, in ms: long enough that a `--rate-limits` run spends a whole window (about 60
 * requests) before it rolls over even on a busy machine, short enough that its waits stay short.
 */
export const windowMs = 5_000;
