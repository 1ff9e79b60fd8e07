/** How the Redis event log reads its entries back: the range-count script, the replay's page, an entry's decoding. */
import { encodeEvent, type StreamEvent } from '../server/events.js';

/**
 * Counts a stream's entries in [ARGV[1], ARGV[2]] (XRANGE bounds), 1 000 at a time, on the server, at
 * most ARGV[3] pages per run: {count, last id counted or false when done}. Redis runs nothing else
 * while a script runs, and XRANGE copies every entry into Lua: one script over a window of 300 000
 * 1 KB events held every replica's Redis for 1.2 s, at each over-limit reconnect (rv12).
 */
export const COUNT_RANGE = `local n, from = 0, ARGV[1]
for _ = 1, tonumber(ARGV[3]) do
  local page = redis.call('XRANGE', KEYS[1], from, ARGV[2], 'COUNT', 1000)
  n = n + #page
  if #page < 1000 then return {n, false} end
  from = '(' .. page[#page][1]
end
return {n, from}`;
/** Pages of COUNT_RANGE per script run: about 2 000 entries, a few ms of Redis at a time. */
export const COUNT_PAGES = 2;

/** Most entries read per XREVRANGE of a replay. */
export const REPLAY_PAGE = 256;

/** An entry's event and its text (as appended: already encoded, so it is not encoded again). */
export function decode(fields: string[]): { event: StreamEvent; json: string } | undefined {
  const at = fields.indexOf('d');
  if (at < 0) return undefined;
  const json = fields[at + 1] as string;
  try {
    const value: unknown = JSON.parse(json);
    // Every reader takes an entry as an event object (`sessionOf` uses `in`): JSON that is no event (null, a
    // number, an array, an object without a type) threw in the replay, reported as Redis unreachable to every
    // client reconnecting over it. Not one of ours: skipped, like an entry that does not parse.
    if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string') return undefined;
    const event = value as StreamEvent;
    // Our appends are single-line; anything else is re-encoded, so it can never break the SSE framing.
    return /[\r\n]/.test(json) ? { event, json: encodeEvent(event).json } : { event, json };
  } catch {
    return undefined;
  }
}

/**
 * A replay's page without the events: XREVRANGE KEYS[1] ARGV[1] ARGV[2] COUNT ARGV[3] as {position, size, …}.
 * The size is what `since`'s `maxBytes` counts, the text's UTF-16 length, which each append stores beside it
 * (`n`); an entry appended before that is counted by its bytes, never fewer (measuring its characters in Lua
 * took 6 ms per 100 KB). The texts are then taken from the shared cache, or read once for every reader
 * (redis-log-entries.ts): each reconnect read and held its own copy of the same events (red22).
 */
export const PAGE_SIZES = `local page = redis.call('XREVRANGE', KEYS[1], ARGV[1], ARGV[2], 'COUNT', tonumber(ARGV[3]))
local out = {}
for i = 1, #page do
  local fields, d, n = page[i][2], 0, nil
  for j = 1, #fields, 2 do
    if fields[j] == 'd' then d = #fields[j + 1] elseif fields[j] == 'n' then n = tonumber(fields[j + 1]) end
  end
  out[#out + 1] = page[i][1]
  out[#out + 1] = n or d
end
return out`;
