/**
 * Reading from Redis within limits: a conversation (or a page of it) within the limits a
 * data directory's transcript has (TRANSCRIPT_LIMITS). Only its length was
 * bounded: 100,000 messages of any size, or a page of 1,000, were taken
 * whole into this process (a conversation grown by another replica, another
 * program or a hostile user of the Redis, up to 512 MB a message), before a
 * byte was looked at (review red18). One script measures and reads: it stops
 * at the first message past `maxLineBytes` or the total past `maxBytes` and
 * answers where, so nothing over the limits crosses the wire, and nothing
 * written between a measure and a read can slip past it.
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { WasmhooksError } from '../errors.js';
import type { LineLimits } from '../lines.js';

/** KEYS: m:<id>. ARGV: first, last index, maxBytes, maxLineBytes. {0, messages…}, or {-1 | -2, index, bytes}. */
const READ = `
local first, last = tonumber(ARGV[1]), tonumber(ARGV[2])
local maxBytes, maxLine = tonumber(ARGV[3]), tonumber(ARGV[4])
local out, total, at = {0}, 0, first
while at <= last do
  local chunk = redis.call('LRANGE', KEYS[1], at, math.min(at + 255, last))
  for j = 1, #chunk do
    local n = string.len(chunk[j])
    if n > maxLine then return {-1, at + j - 1, n} end
    total = total + n
    if total > maxBytes then return {-2, at + j - 1, total} end
    out[#out + 1] = chunk[j]
  end
  if #chunk < 256 then break end
  at = at + 256
end
return out`;

/**
 * KEYS: a hash. ARGV: maxBytes. Its fields and values flat, as HGETALL, when they hold at most maxBytes
 * together (HSTRLEN is O(1): nothing is copied to measure); else {-1, bytes}.
 */
const HASH = `
local total, fields = 0, redis.call('HKEYS', KEYS[1])
for i = 1, #fields do
  total = total + #fields[i] + redis.call('HSTRLEN', KEYS[1], fields[i])
  if total > tonumber(ARGV[1]) then return {-1, total} end
end
return redis.call('HGETALL', KEYS[1])`;

/**
 * Queues the bounded read of a hash (a session's record, its pending questions) on `redis` (a client or a
 * pipeline); `hashOf` reads its answer. One field of gigabytes, written by anyone with access to the Redis,
 * was read whole by every `GET /session` page holding it.
 */
export function readHash<R extends Redis | ChainableCommander>(redis: R, key: string, maxBytes: number): ReturnType<R['eval']> {
  return redis.eval(HASH, 1, key, maxBytes) as ReturnType<R['eval']>;
}

/** A `readHash` answer as the hash; past the limit STORE_UNAVAILABLE naming the key. */
export function hashOf(answer: unknown, key: string, maxBytes: number): Record<string, string> {
  const flat = answer as (string | number)[];
  if (flat[0] === -1) {
    throw new WasmhooksError('STORE_UNAVAILABLE', `the Redis key ${key} holds ${flat[1]} bytes or more, over the ${maxBytes} a record may hold (maxTranscriptBytes); nothing was loaded, fix or delete that key`);
  }
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i] as string] = flat[i + 1] as string;
  return hash;
}

/** Messages `first`..`last` (inclusive) of the list `key`, as stored; past a limit STORE_UNAVAILABLE naming the session and the message. */
export async function readMessages(redis: Redis, key: string, session: string, first: number, last: number, limits: Pick<LineLimits, 'maxBytes' | 'maxLineBytes'>): Promise<string[]> {
  const answer = (await redis.eval(READ, 1, key, first, last, limits.maxBytes, limits.maxLineBytes)) as [number, ...(string | number)[]];
  const [status, ...rest] = answer;
  if (status === 0) return rest as string[];
  const [index, bytes] = rest as [number, number];
  const what =
    status === -1
      ? `message ${index} is ${bytes} bytes, over the ${limits.maxLineBytes} one message may hold`
      : `its messages up to ${index} hold ${bytes} bytes, over the ${limits.maxBytes} one read may hold`;
  throw new WasmhooksError('STORE_UNAVAILABLE', `the conversation of session ${session} (Redis key ${key}): ${what} (maxTranscriptBytes / maxTranscriptLineBytes); nothing was loaded, trim or delete that key`);
}
