/**
 * express 5 + limiter 4 (`TokenBucket`), one bucket per key: `bucketSize` the plan's limit,
 * refilled at the limit per window (`tokensPerInterval`, `interval`, README "Budget bytes and
 * bursts"), taken with `tryRemoveTokens(1)` and refused with `getWaitTime(1)` as Retry-After
 * (README "Reject instead of waiting"). A standalone bucket starts empty (README "Additional
 * Notes"), so a new key's bucket is filled first (`content`, a public field of TokenBucket).
 * X-RateLimit-Reset is when the bucket is full again, so it moves forward with every request: a
 * moving window, which the interface allows ("Unix timestamp at which the limit resets").
 */
import { TokenBucket } from 'limiter';
import { startExpressWindowServer } from './express-window-limiter.ts';
import { windowMs } from './rate-limit-window.ts';
import type { RealServer } from './real-server.ts';

/** Starts the server. */
export function startExpressTokenBucketServer(): Promise<RealServer> {
  const buckets = new Map<string, TokenBucket>();
  return startExpressWindowServer((key, limit) => {
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket({ bucketSize: limit, tokensPerInterval: limit, interval: windowMs });
      bucket.content = limit;
      buckets.set(key, bucket);
    }
    const allowed = bucket.tryRemoveTokens(1);
    bucket.drip();
    const msPerToken = windowMs / limit;
    return {
      allowed,
      remaining: bucket.content,
      resetAtMs: Date.now() + (limit - bucket.content) * msPerToken,
      retryAfterMs: bucket.getWaitTime(1),
    };
  });
}
