/**
 * The quota decision of quota.ts (decideQuota) as one Lua script that Redis runs atomically: the
 * ban check, admission against both windows, the count, the refusals that lead to a ban and the
 * ban's start, on one key's usage hash, in one round trip (EVALSHA; node-redis sends the script
 * itself once when Redis answers NOSCRIPT). The script is a line-for-line copy of rate-limit.ts's
 * and ban.ts's rules, and the property test (quota-script.test.ts) runs both on the same
 * sequences: a change to one is a change to the other.
 *
 * Arithmetic is the same in both: Lua 5.1 numbers are IEEE doubles, as JavaScript's are, and
 * every number goes in and out as text (`%.17g`, which reads back to the same double), never as
 * a Redis integer reply, which would truncate a fractional time.
 *
 * The time is ARGV[1], the fleet's clock as the caller reads it. The script reads it in one
 * place (`now`), so that the time can come from Redis itself instead: `redis.call('TIME')` plus
 * the fleet's clock offset, given as an argument (a fleet-wide clock key would sit in another
 * hash slot than the key's usage under Redis Cluster, where a script reads one slot).
 */
import { type CommandParser, defineScript } from '@redis/client';
import type { BanPolicy } from '../base/quota/ban.ts';
import type { Limits } from '../base/quota/plans.ts';
import type { QuotaDecision } from '../base/quota/quota.ts';

// KEYS[1]: the key's usage hash. ARGV: now (epoch ms), perMinute, perDay, ban threshold, ban
// seconds. Returns {verdict, limit, remaining, reset, retryAtMs, started} as text.
const decideQuotaLua = `
local usage = KEYS[1]
local now = tonumber(ARGV[1])
local perMinute, perDay = tonumber(ARGV[2]), tonumber(ARGV[3])
local threshold, durationSeconds = tonumber(ARGV[4]), tonumber(ARGV[5])
local MINUTE_MS, DAY_MS = 60000, 86400000
local fields = {'minuteStart', 'minuteCount', 'dayStart', 'dayCount', 'violations', 'retryAt', 'bannedUntil'}

local u = {}
local stored = redis.call('HMGET', usage, unpack(fields))
for index, field in ipairs(fields) do u[field] = tonumber(stored[index]) or 0 end

local function text(n) return string.format('%.17g', n) end

local function save()
  local values = {}
  for _, field in ipairs(fields) do
    values[#values + 1] = field
    values[#values + 1] = text(u[field])
  end
  redis.call('HSET', usage, unpack(values))
end

-- rate-limit.ts: roll, views, binding, toHeaders.
local function roll(startField, countField, lengthMs)
  local start = math.floor(now / lengthMs) * lengthMs
  if u[startField] ~= start then
    u[startField] = start
    u[countField] = 0
  end
end

local function views()
  local minute = {limit = perMinute, remaining = math.max(0, perMinute - u.minuteCount), resetMs = u.minuteStart + MINUTE_MS}
  local day = {limit = perDay, remaining = math.max(0, perDay - u.dayCount), resetMs = u.dayStart + DAY_MS}
  return minute, day
end

local function binding(minute, day)
  if day.remaining < minute.remaining then return day end
  return minute
end

local function answer(verdict, limit, remaining, reset, retryAtMs, started)
  save()
  return {verdict, text(limit), text(remaining), text(reset), text(retryAtMs), started}
end

-- ban.ts: isBanned, which lifts an ended ban.
if u.bannedUntil ~= 0 then
  if now < u.bannedUntil then
    roll('minuteStart', 'minuteCount', MINUTE_MS)
    roll('dayStart', 'dayCount', DAY_MS)
    local minute, day = views()
    return answer('banned', binding(minute, day).limit, 0, math.ceil(u.bannedUntil / 1000), u.bannedUntil, '0')
  end
  u.bannedUntil = 0
  u.violations = 0
end

-- rate-limit.ts: admitRequest.
roll('minuteStart', 'minuteCount', MINUTE_MS)
roll('dayStart', 'dayCount', DAY_MS)
local minute, day = views()
if minute.remaining == 0 or day.remaining == 0 then
  local worst = day
  if minute.remaining == 0 and (day.remaining ~= 0 or minute.resetMs >= day.resetMs) then worst = minute end
  -- ban.ts: recordRefusal.
  if now < u.retryAt then u.violations = u.violations + 1 end
  u.retryAt = worst.resetMs
  if u.violations >= threshold then
    u.bannedUntil = now + durationSeconds * 1000
    u.retryAt = u.bannedUntil
    return answer('banned', worst.limit, worst.remaining, math.ceil(u.bannedUntil / 1000), u.bannedUntil, '1')
  end
  return answer('limited', worst.limit, worst.remaining, math.ceil(worst.resetMs / 1000), worst.resetMs, '0')
end
u.minuteCount = u.minuteCount + 1
u.dayCount = u.dayCount + 1
-- ban.ts: recordAdmission.
u.violations = 0
minute, day = views()
local shown = binding(minute, day)
return answer('admitted', shown.limit, shown.remaining, math.ceil(shown.resetMs / 1000), 0, '0')
`;

/** The script's reply as a QuotaDecision; anything else is a script that does not match. */
function decisionOf(reply: unknown): QuotaDecision {
  const [verdict, limit, remaining, reset, retryAtMs, started] = reply as string[];
  const rateLimit = { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
  if (verdict === 'admitted') return { verdict, rateLimit };
  if (verdict === 'limited') return { verdict, rateLimit, retryAtMs: Number(retryAtMs) };
  if (verdict === 'banned')
    return { verdict, rateLimit, retryAtMs: Number(retryAtMs), started: started === '1' };
  throw new Error(`petstore-fake: the quota script answered ${JSON.stringify(reply)}`);
}

/** The script as node-redis runs it: `client.decideQuota(usageKey, now, limits, policy)`. */
export const decideQuotaScript = defineScript({
  SCRIPT: decideQuotaLua,
  NUMBER_OF_KEYS: 1,
  parseCommand(
    parser: CommandParser,
    usageKey: string,
    now: number,
    limits: Limits,
    policy: BanPolicy,
  ) {
    parser.pushKey(usageKey);
    parser.push(
      String(now),
      String(limits.perMinute),
      String(limits.perDay),
      String(policy.threshold),
      String(policy.durationSeconds),
    );
  },
  transformReply: decisionOf,
});
