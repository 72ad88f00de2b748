/**
 * The window every realistic server's limiter counts in. The plans' limits (60, 300) stay as the
 * interface states them, but the window lasts seconds, not a minute: a harness run plans from the
 * headers, so a test that spends a window and honours its Retry-After finishes in seconds.
 */

/** Window length, in ms. */
export const windowMs = 3_000;
