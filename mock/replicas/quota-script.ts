/**
 * The quota decision of quota.ts (decideQuota) in Lua, for the script that answers a request
 * (request-script.ts), which Redis runs atomically: the ban check, admission against both
 * windows, the count, the refusals that lead to a ban and the ban's start, on one key's usage
 * hash. It is a copy of rate-limit.ts's and ban.ts's rules, each part named after the function
 * it copies, and the property test (redis-quota-ledger.test.ts) runs both on the same
 * sequences: a change to one is a change to the other.
 *
 * Arithmetic is the same in both: Lua 5.1 numbers are IEEE doubles, as JavaScript's are, and
 * every number goes in and out as text that reads back to the same double (`%.17g`), never as
 * a Redis integer reply, which would truncate a fractional time.
 *
 * The time is `now`, the fleet's clock as the caller reads it (a replica's clock follows Redis's
 * own, fleet-clock.ts), read in one place.
 */
import type { QuotaDecision } from '../base/quota/quota.ts';

/**
 * The decision as a Lua function, which every script that decides a request defines:
 * `decideQuota(usageKey, now, perMinute, perDay, threshold, durationSeconds)` decides on the
 * key's usage hash at usageKey, stores the record, and returns {verdict, limit, remaining, reset,
 * retryAtMs, started, violations} as text. Plain locals rather than tables: it runs on every
 * request, inside Redis's one thread.
 */
export const decideQuotaFunction = `
local function decideQuota(usageKey, now, perMinute, perDay, threshold, durationSeconds)
  local MINUTE_MS, DAY_MS = 60000, 86400000
  local stored = redis.call('HMGET', usageKey, 'minuteStart', 'minuteCount', 'dayStart', 'dayCount', 'violations', 'retryAt', 'bannedUntil')
  local minuteStart, minuteCount = tonumber(stored[1]) or 0, tonumber(stored[2]) or 0
  local dayStart, dayCount = tonumber(stored[3]) or 0, tonumber(stored[4]) or 0
  local violations, retryAt, bannedUntil = tonumber(stored[5]) or 0, tonumber(stored[6]) or 0, tonumber(stored[7]) or 0

  -- Stores the record (Redis writes a number argument as %.17g: the same double reads back) and
  -- answers with the numbers as text.
  local function answer(verdict, limit, remaining, reset, retryAtMs, started)
    redis.call('HSET', usageKey, 'minuteStart', minuteStart, 'minuteCount', minuteCount,
      'dayStart', dayStart, 'dayCount', dayCount, 'violations', violations, 'retryAt', retryAt,
      'bannedUntil', bannedUntil)
    return {verdict, string.format('%.17g', limit), string.format('%.17g', remaining),
      string.format('%.17g', reset), string.format('%.17g', retryAtMs), started,
      string.format('%.17g', violations)}
  end

  -- rate-limit.ts's roll, which both peekRateLimit and admitRequest do first, for one time.
  local start = math.floor(now / MINUTE_MS) * MINUTE_MS
  if minuteStart ~= start then minuteStart, minuteCount = start, 0 end
  start = math.floor(now / DAY_MS) * DAY_MS
  if dayStart ~= start then dayStart, dayCount = start, 0 end
  local minuteRemaining = math.max(0, perMinute - minuteCount)
  local dayRemaining = math.max(0, perDay - dayCount)

  -- ban.ts's isBanned, which lifts an ended ban; a banned key shows the binding window's limit.
  if bannedUntil ~= 0 then
    if now < bannedUntil then
      local limit = perMinute
      if dayRemaining < minuteRemaining then limit = perDay end
      return answer('banned', limit, 0, math.ceil(bannedUntil / 1000), bannedUntil, '0')
    end
    bannedUntil, violations = 0, 0
  end

  -- rate-limit.ts's admitRequest: refused when a window is spent, reporting the one that resets
  -- later (the minute on a tie)...
  if minuteRemaining == 0 or dayRemaining == 0 then
    local limit, remaining, resetMs = perDay, dayRemaining, dayStart + DAY_MS
    if minuteRemaining == 0 and (dayRemaining ~= 0 or minuteStart + MINUTE_MS >= resetMs) then
      limit, remaining, resetMs = perMinute, minuteRemaining, minuteStart + MINUTE_MS
    end
    -- ban.ts's recordRefusal: a refusal sent before Retry-After elapsed is a violation.
    if now < retryAt then violations = violations + 1 end
    retryAt = resetMs
    if violations >= threshold then
      bannedUntil = now + durationSeconds * 1000
      retryAt = bannedUntil
      return answer('banned', limit, remaining, math.ceil(bannedUntil / 1000), bannedUntil, '1')
    end
    return answer('limited', limit, remaining, math.ceil(resetMs / 1000), resetMs, '0')
  end
  -- ...else counted in both, reporting the window with fewer left (the minute on a tie), and
  -- ban.ts's recordAdmission.
  minuteCount, dayCount, violations = minuteCount + 1, dayCount + 1, 0
  if dayRemaining - 1 < minuteRemaining - 1 then
    return answer('admitted', perDay, dayRemaining - 1, math.ceil((dayStart + DAY_MS) / 1000), 0, '0')
  end
  return answer('admitted', perMinute, minuteRemaining - 1, math.ceil((minuteStart + MINUTE_MS) / 1000), 0, '0')
end
`;

/** The first seven values of a script's reply, decideQuota's, as a QuotaDecision. */
export function quotaDecisionOf(reply: readonly string[]): QuotaDecision {
  const [verdict, limit, remaining, reset, retryAtMs, started, violations] = reply;
  const rateLimit = { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
  const counted = Number(violations);
  if (verdict === 'admitted') return { verdict, rateLimit, violations: counted };
  if (verdict === 'limited')
    return { verdict, rateLimit, retryAtMs: Number(retryAtMs), violations: counted };
  if (verdict === 'banned')
    return {
      verdict,
      rateLimit,
      retryAtMs: Number(retryAtMs),
      started: started === '1',
      violations: counted,
    };
  throw new Error(`petstore-fake: the quota script answered ${JSON.stringify(reply)}`);
}
