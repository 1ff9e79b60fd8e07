/**
 * The Lua scripts of the Redis session store (redis.ts) that change a lease
 * or write under one: each runs whole inside Redis, so "one prompt per
 * session" and the fencing tokens hold across replicas.
 */
import { LATER_LUA } from './resume-at.js';

// Not re-entrant: a session still marked running (even by this owner, before a crash) waits for the sweep.
/** Fencing tokens stay exact in JavaScript (a token past it would be read rounded). */
export const FENCE_MAX = Number.MAX_SAFE_INTEGER;
// The token counter is checked before anything is written (a script's writes are not undone by a later error): a
// counter that is not a whole number below 2^53 - 1 (damaged, or set by hand) would either fail INCR halfway, leaving
// a lease and a running mark nobody holds, or give tokens JavaScript reads rounded, so two prompts could carry the
// same one. -1: refused, nothing written.
export const ACQUIRE = `
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], 'running') == 1 then return 0 end
local last = redis.call('GET', KEYS[5])
if last and not (string.match(last, '^%d+$') and string.len(last) <= 16 and tonumber(last) < ${FENCE_MAX}) then return -1 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('HSET', KEYS[2], 'running', ARGV[1]); redis.call('SADD', KEYS[3], ARGV[3])
  local fence = redis.call('INCR', KEYS[5]); redis.call('SET', KEYS[4], fence); return fence
end
return 0`;
export const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]); return 1 end
return 0`;
/** With a fencing token: nobody acquired or claimed the session since, so a lapsed lease is taken again. */
export const RENEW_FENCED = `
if redis.call('EXISTS', KEYS[3]) == 0 or redis.call('GET', KEYS[2]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]); return 1`;
/** KEYS: m:<id>, fence:<id>; ARGV: the token ('' for none), 'replace' or 'append', then the messages. */
export const MESSAGES = `
if ARGV[1] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[2] == 'replace' then redis.call('DEL', KEYS[1]) end
for i = 3, #ARGV, 1000 do redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV))) end
return 1`;
export const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if redis.call('HGET', KEYS[2], 'running') == ARGV[1] then redis.call('HDEL', KEYS[2], 'running'); redis.call('SREM', KEYS[3], ARGV[2]) end
return 1`;
/**
 * KEYS: s:<id>, fence:<id>. ARGV: the new resumeAt's turn, open, seq (resume-at.ts LATER_LUA) and JSON ('' for none),
 * the fencing token ('' for none), then field/value pairs. -1: the token is not current (nothing written).
 */
export const UPDATE = `${LATER_LUA}
if ARGV[5] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[5] then return -1 end
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if #ARGV > 5 then redis.call('HSET', KEYS[1], unpack(ARGV, 6)) end
if ARGV[4] ~= '' and later(redis.call('HGET', KEYS[1], 'resumeAt')) then redis.call('HSET', KEYS[1], 'resumeAt', ARGV[4]) end
return 1`;
export const CLAIM_ORPHAN = `
if redis.call('HGET', KEYS[2], 'running') == ARGV[1] and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HDEL', KEYS[2], 'running'); redis.call('SREM', KEYS[3], ARGV[2]); redis.call('DEL', KEYS[4]); return 1
end
return 0`;
