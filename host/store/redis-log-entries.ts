/**
 * The Redis log's entries as replays read them, shared by every reader:
 * each reconnect used to read its own copy of the same events from Redis and
 * hold it, with its own frames, for as long as its client took to read them
 * (60 clients replaying one session's 100 events of 100 KB held 1.2 GB, review
 * red22). An entry is read from Redis once, whoever asks meanwhile waits for
 * that read, and it is kept in a byte-bounded LRU (byte-lru.ts): the next
 * reconnects take the same `Entry`, whose frames are built once per shape.
 * Stream entries never change under their id (`<epoch>.<position>`), so a
 * kept one is never stale.
 */
import type { Redis } from 'ioredis';
import { sessionOf } from '../server/events.js';
import { Entry } from '../server/ring.js';
import { ByteLru } from './byte-lru.js';
import { decode } from './redis-log-read.js';

/** Bytes of replayed entries the Redis log keeps for the next readers (default of `RedisLogOptions.cacheBytes`). */
export const REPLAY_CACHE_BYTES = 64 << 20;

export class SharedEntries {
  readonly #kept: ByteLru<string, Entry>;
  /** Entries being read now, by id: a second reader waits for the first read. */
  readonly #reading = new Map<string, Promise<Entry | undefined>>();

  constructor(maxBytes: number) {
    this.#kept = new ByteLru(maxBytes);
  }

  /** Bytes of entries kept now. */
  get bytes(): number {
    return this.#kept.bytes;
  }

  /** The entries at `positions` of the stream `key`, in order; undefined for one that is gone or not one of ours. */
  read(redis: Redis, key: string, epoch: string, positions: readonly string[]): Promise<(Entry | undefined)[]> {
    const out: (Entry | Promise<Entry | undefined> | undefined)[] = [];
    const missing: number[] = [];
    for (const position of positions) {
      const id = `${epoch}.${position}`;
      const known = this.#kept.get(id) ?? this.#reading.get(id);
      if (known === undefined) missing.push(out.length);
      out.push(known);
    }
    if (missing.length === 0) return Promise.all(out);
    const pipe = redis.pipeline();
    for (const at of missing) pipe.xrange(key, positions[at] as string, positions[at] as string);
    const rows = pipe.exec();
    missing.forEach((at, i) => {
      const position = positions[at] as string;
      const id = `${epoch}.${position}`;
      const one = rows
        .then((all) => {
          const [error, page] = all?.[i] ?? [new Error('no reply')];
          if (error) throw error;
          const fields = (page as [string, string[]][])[0]?.[1];
          const decoded = fields && decode(fields);
          if (!decoded) return undefined;
          const entry = new Entry(epoch, position, sessionOf(decoded.event), decoded.json);
          // Its text, and the frame of the one shape a server mostly sends (each further shape is one more).
          this.#kept.set(id, entry, 2 * decoded.json.length);
          return entry;
        })
        .finally(() => this.#reading.delete(id));
      this.#reading.set(id, one);
      out[at] = one;
    });
    return Promise.all(out);
  }
}
