/**
 * Where a session rebuilt from its store goes on counting (`resumeAt`, docs/events.md): reading a
 * stored value, and the one order in which values replace each other in every store.
 *
 * While a prompt runs, the stored value is a reservation (`open`): a `seq` bound the prompt's events
 * stay below, written before the prompt starts (a server, under the lease) and moved ahead while it
 * runs; its end writes the exact last `seq`. A prompt that never ends (its process killed, its lease
 * lost) leaves the reservation, so the next prompt, on any replica or after a restart, counts on
 * past every `seq` the lost one may have used: a session's `seq` only grows, with a jump only after
 * an interrupted prompt. This needs no read of the event log (the file store's is in memory and gone
 * after a restart; Redis's is one stream of every session, trimmed) and costs one record write per
 * prompt start and per `RESUME_AT_RESERVE / 2` events.
 */
import { RESUME_AT_MAX, type ResumeAt, type SessionRecord } from './types.js';

/** How far ahead of the last event a running prompt's reservation reaches (renewed at half of it). */
export const RESUME_AT_RESERVE = 10_000;

const COUNTER = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= RESUME_AT_MAX + RESUME_AT_RESERVE;

/** A stored `resumeAt` when it is usable, `open` included (anything may be read from files or Redis). */
function storedResumeAt(raw: unknown): ResumeAt | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { seq, turn, open } = raw as Partial<Record<keyof ResumeAt, unknown>>;
  if (!COUNTER(seq) || !COUNTER(turn) || (open !== undefined && open !== true)) return undefined;
  return open ? { seq, turn, open } : { seq, turn };
}

/** A record's counters for a rebuilt session (a damaged value is ignored: the session counts from 0 as before). */
export function resumeAtOf(record: SessionRecord | undefined): { seq: number; turn: number } | undefined {
  const r = storedResumeAt(record?.resumeAt);
  return r && r.seq <= RESUME_AT_MAX && r.turn <= RESUME_AT_MAX ? { seq: r.seq, turn: r.turn } : undefined;
}

/**
 * Whether `next` may replace the stored `current`: a later prompt, or the same prompt's end over its
 * reservation, or the same kind with a `seq` as large. So a writer that lost its lease (whose prompt
 * the next one has overtaken) never moves the record back. Mirrored by the Redis store's Lua (`LATER`).
 */
export function replaces(next: ResumeAt, current: unknown): boolean {
  const cur = storedResumeAt(current);
  if (!cur) return true;
  if (next.turn !== cur.turn) return next.turn > cur.turn;
  if ((next.open === true) !== (cur.open === true)) return cur.open === true;
  return next.seq >= cur.seq;
}

/** `replaces` in Redis Lua: ARGV[1..3] the new turn, open (1/0), seq; `cur` the stored JSON or false. */
export const LATER_LUA = `
local function counter(n) return type(n) == 'number' and n >= 0 and n <= ${RESUME_AT_MAX + RESUME_AT_RESERVE} and n % 1 == 0 end
local function later(cur)
  local ok, c = pcall(cjson.decode, cur or 'null')
  -- A damaged value (as storedResumeAt sees it) is replaced: a tampered huge turn must not freeze the counters.
  if not ok or type(c) ~= 'table' or not counter(c.turn) or not counter(c.seq) or (c.open ~= nil and c.open ~= true) then return true end
  local turn, open, seq = tonumber(ARGV[1]), ARGV[2] == '1', tonumber(ARGV[3])
  if turn ~= c.turn then return turn > c.turn end
  local copen = c.open == true
  if open ~= copen then return copen end
  return seq >= c.seq
end`;
