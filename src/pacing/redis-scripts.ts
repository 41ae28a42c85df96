// The rate budget's rule in Redis, as atomic Lua scripts over a sorted set of starts and a hash of the hold: the
// rule budget-window.ts states for the budget file. Times are the Redis server's (TIME), the one clock every host
// shares. Each script is sent once per connection and called by its digest after that (the client's EVALSHA).

import { defineScript } from '@redis/client';

const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS: starts, hold. ARGV: perSecond, windowMs, member. Returns {0, now} when the start is taken, else
 * {wait ms, hold ms left (0: none), hold reason}.
 */
export const TAKE = defineScript({
  NUMBER_OF_KEYS: 2,
  SCRIPT: `${NOW}
local per, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local hold = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
local untilAt = 0
if hold > now then untilAt = hold end
local n = redis.call('ZCARD', KEYS[1])
if n >= per then
  local nth = redis.call('ZRANGE', KEYS[1], n - per, n - per, 'WITHSCORES')
  local open = tonumber(nth[2]) + window
  if open > untilAt then untilAt = open end
end
if untilAt > now then
  local left = 0
  if hold > now then left = hold - now end
  return {untilAt - now, left, redis.call('HGET', KEYS[2], 'reason') or 'rate-limited'}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window * 2)
return {0, now}
`,
  parseCommand(parser, starts: string, hold: string, perSecond: number, windowMs: number, member: string) {
    parser.pushKeys([starts, hold]);
    parser.push(String(perSecond), String(windowMs), member);
  },
  transformReply: (reply: unknown) => reply as [number, number, string?],
});

/** KEYS: starts. ARGV: member. The start moves to now, never earlier than it was. */
export const SENT = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `${NOW}
return redis.call('ZADD', KEYS[1], 'XX', 'GT', now, ARGV[1])
`,
  parseCommand(parser, starts: string, member: string) {
    parser.pushKey(starts);
    parser.push(member);
  },
  transformReply: (reply: unknown) => reply as number,
});

/** KEYS: hold. ARGV: ms, reason. A longer hold than the one set wins. */
export const HOLD = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `${NOW}
local untilAt = now + tonumber(ARGV[1])
if untilAt > tonumber(redis.call('HGET', KEYS[1], 'until') or '0') then
  redis.call('HSET', KEYS[1], 'until', untilAt, 'reason', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + 1000)
end
return 1
`,
  parseCommand(parser, hold: string, ms: number, reason: string) {
    parser.pushKey(hold);
    parser.push(String(ms), reason);
  },
  transformReply: (reply: unknown) => reply as number,
});

export const SCRIPTS = { take: TAKE, sent: SENT, hold: HOLD };
