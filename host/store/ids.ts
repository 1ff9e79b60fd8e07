/**
 * Event ids are `<epoch>.<position>`: the epoch names one incarnation of a
 * log (random, 10 base-36 characters), the position orders events in it
 * (a counter for the memory log, a Redis stream id `ms-seq` for Redis).
 */

/** What `Last-Event-ID` may hold; anything else is refused with 400. */
export const EVENT_ID = /^[a-z0-9]{1,16}\.\d{1,15}(?:-\d{1,15})?$/;

export function newEpoch(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  // Joined, not appended character by character: on JavaScriptCore `+=` leaves a rope of ten strings that every
  // event id built on it (`<epoch>.<position>`) walks again when its frame is encoded (~660 instructions an event).
  return Array.from(bytes, (b) => (b % 36).toString(36)).join('');
}

/** Splits an id; undefined when it is not one of ours. */
export function parseEventId(id: string): { epoch: string; position: string } | undefined {
  if (!EVENT_ID.test(id)) return undefined;
  const dot = id.indexOf('.');
  return { epoch: id.slice(0, dot), position: id.slice(dot + 1) };
}

/** Orders two positions `ms[-seq]` (numeric, segment by segment). */
export function comparePositions(a: string, b: string): number {
  const [am = '0', as = '0'] = a.split('-');
  const [bm = '0', bs = '0'] = b.split('-');
  return Number(am) - Number(bm) || Number(as) - Number(bs);
}
