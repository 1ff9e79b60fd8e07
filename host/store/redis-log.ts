/**
 * The Redis event log: one stream (`<prefix>events`) that every replica
 * appends to and reads. Stream ids (`ms-seq`) become SSE ids under the
 * log's epoch (`<prefix>epoch`, created when missing: a Redis that lost its
 * data gets a new epoch, and older ids get `replay.gap`). The stream is
 * trimmed to about `capacity` entries (and, with `maxAgeMs`, by age): that
 * is the replay window. Appends are queued and sent in order, in batches;
 * while Redis is down they wait (bounded) and are retried. A batch whose
 * reply was lost, or one of whose appends failed, may have landed in part
 * (in any pattern): each entry carries its producer and sequence number
 * (`u`), and before a retry the entries of ours that landed are looked up
 * and taken off the queue, so an event is logged once and is not lost while
 * this process lives.
 */
import type { Redis } from 'ioredis';
import { Entry } from '../server/ring.js';
import { comparePositions, newEpoch, parseEventId } from './ids.js';
import { duplicate, guarded } from './redis-client.js';
import { encodeEvent, sessionOf, type StreamEvent } from '../server/events.js';
import { Fifo } from './fifo.js';
import { COUNT_PAGES, COUNT_RANGE, decode, PAGE_SIZES, REPLAY_PAGE } from './redis-log-read.js';
import { REPLAY_CACHE_BYTES, SharedEntries } from './redis-log-entries.js';
import type { EventLog, Since } from './types.js';

/** Events held while Redis is unreachable; beyond this the oldest are dropped. */
const MAX_QUEUE = 100_000;
const BATCH = 500;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RedisLogOptions {
  capacity: number;
  maxAgeMs?: number;
  prefix?: string;
  /** Bytes of replayed entries kept for the next replays (redis-log-entries.ts); default `REPLAY_CACHE_BYTES`. */
  cacheBytes?: number;
}

export class RedisEventLog implements EventLog {
  #epoch = '';
  readonly capacity: number;
  readonly #key: string;
  readonly #epochKey: string;
  readonly #subscribers = new Set<(entry: Entry) => void>();
  readonly #queue = new Fifo<{ seq: number; data: string }>();
  /** This log's name as a producer in entries' `u` field, and its next sequence number. */
  readonly #producer = crypto.randomUUID();
  #seq = 0;
  /** A batch failed: some of it may have landed; look before sending again. */
  #uncertain = false;
  #pumping = false;
  /** Position of the newest entry delivered to subscribers. */
  #seen = '0-0';
  /** Position of the newest entry this process appended. */
  #appended = '0-0';
  #closed = false;
  /** Set by a failed read or a reconnect: check the epoch before reading on. */
  #recheck = false;
  /** Replayed entries, read once and shared by every reader (redis-log-entries.ts). */
  readonly replayed: SharedEntries;
  /** Events dropped because the queue was full while Redis was away. */
  dropped = 0;

  private constructor(
    private readonly redis: Redis,
    private readonly reader: Redis,
    private readonly url: string,
    private readonly options: RedisLogOptions,
  ) {
    this.capacity = options.capacity;
    const prefix = options.prefix ?? 'wasmhooks:';
    this.#key = `${prefix}events`;
    this.#epochKey = `${prefix}epoch`;
    this.replayed = new SharedEntries(options.cacheBytes ?? REPLAY_CACHE_BYTES);
  }

  static async open(redis: Redis, url: string, options: RedisLogOptions): Promise<RedisEventLog> {
    // The reader never resends a read cut by a reconnect: it must fail, so the epoch is checked first.
    const log = new RedisEventLog(redis, await duplicate(redis, url, 0), url, options);
    await guarded(url, () => log.#start());
    log.reader.on('ready', () => (log.#recheck = true));
    void log.#read();
    return log;
  }

  get epoch(): string {
    return this.#epoch;
  }

  async #ensureEpoch(): Promise<boolean> {
    await this.redis.set(this.#epochKey, newEpoch(), 'NX');
    const epoch = (await this.redis.get(this.#epochKey)) ?? '';
    const changed = epoch !== this.#epoch;
    this.#epoch = epoch;
    return changed;
  }

  async #start(): Promise<void> {
    await this.#ensureEpoch();
    const last = await this.redis.xrevrange(this.#key, '+', '-', 'COUNT', 1);
    this.#seen = last[0]?.[0] ?? '0-0';
  }

  append(event: StreamEvent): void {
    if (this.#closed) return;
    if (this.#queue.size >= MAX_QUEUE) {
      this.#queue.drop(1);
      this.dropped++;
    }
    // Total: an event that cannot be encoded is logged as its `event.unencodable` stand-in.
    this.#queue.push({ seq: this.#seq++, data: encodeEvent(event).json });
    if (!this.#pumping) void this.#pump();
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.#queue.size > 0 && !this.#closed) {
        if (this.#uncertain) {
          try {
            await this.#dropLanded();
            this.#uncertain = false;
          } catch {
            await sleep(200);
          }
          continue;
        }
        const batch = this.#queue.first(BATCH);
        const pipe = this.redis.pipeline();
        // `n`: the text's length, which a replay counts without reading the text (redis-log-read.ts).
        for (const { seq, data } of batch) pipe.xadd(this.#key, 'MAXLEN', '~', String(this.capacity), '*', 'u', `${this.#producer}.${seq}`, 'n', String(data.length), 'd', data);
        if (this.options.maxAgeMs) pipe.xtrim(this.#key, 'MINID', '~', String(Date.now() - this.options.maxAgeMs));
        try {
          const results = (await pipe.exec()) ?? [];
          const ids = results.slice(0, batch.length).map(([error, id]) => (error ? undefined : (id as string)));
          if (ids.some((id) => id === undefined)) throw new Error('append failed');
          this.#appended = ids.at(-1) as string;
          // By sequence number, not by count: a full queue may have dropped its oldest meanwhile.
          const last = batch.at(-1)!.seq;
          let sent = 0;
          while (sent < this.#queue.size && this.#queue.at(sent)!.seq <= last) sent++;
          this.#queue.drop(sent);
        } catch {
          this.#uncertain = true;
          await sleep(200);
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * Takes off the queue what a failed batch appended after all: our entries
   * after the last one we know landed. Any of them may be missing (one XADD
   * of a batch can fail while a later one lands), so exactly the queued
   * sequence numbers found are taken off; the rest stay queued, in order,
   * and are sent again once each.
   */
  async #dropLanded(): Promise<void> {
    const mine = `${this.#producer}.`;
    let from = this.#appended === '0-0' ? '-' : `(${this.#appended}`;
    const landed = new Set<number>();
    for (;;) {
      const page = await this.redis.xrange(this.#key, from, '+', 'COUNT', 1000);
      for (const [position, fields] of page) {
        const at = fields.indexOf('u');
        const u = at >= 0 ? fields[at + 1] : undefined;
        if (u?.startsWith(mine)) {
          landed.add(Number(u.slice(mine.length)));
          this.#appended = position;
        }
      }
      if (page.length < 1000) break;
      from = `(${page.at(-1)![0]}`;
    }
    if (landed.size === 0) return;
    this.#queue.retain((entry) => !landed.has(entry.seq));
  }

  /** One blocking reader per process delivers every replica's events in stream order. */
  async #read(): Promise<void> {
    // After any failure the epoch is checked before the next read: a Redis that came back empty must not
    // have its new entries delivered under the old epoch.
    while (!this.#closed) {
      try {
        if (this.#recheck) {
          this.#recheck = false;
          if (await this.#ensureEpoch()) this.#seen = '0-0';
        }
        const got = await this.reader.xread('COUNT', 1000, 'BLOCK', 1000, 'STREAMS', this.#key, this.#seen);
        for (const [, entries] of got ?? []) {
          for (const [position, fields] of entries) {
            this.#seen = position;
            const decoded = decode(fields);
            if (!decoded) continue;
            const entry = new Entry(this.#epoch, position, sessionOf(decoded.event), decoded.json);
            for (const fn of this.#subscribers) fn(entry);
          }
        }
      } catch {
        if (this.#closed) return;
        this.#recheck = true;
        await sleep(200);
      }
    }
  }

  subscribe(fn: (entry: Entry) => void): () => void {
    this.#subscribers.add(fn);
    return () => void this.#subscribers.delete(fn);
  }

  lastId(): string {
    return `${this.#epoch}.${this.#seen}`;
  }

  async since(afterId: string, maxBytes = Infinity): Promise<Since> {
    const parsed = parseEventId(afterId);
    return guarded(this.url, async () => {
      if (!parsed || parsed.epoch !== this.#epoch || comparePositions(parsed.position, this.#seen) > 0) {
        const { entries } = await this.#newest('-', maxBytes);
        return { kind: 'gap', entries, oldest: entries[0]?.id ?? null, missed: null, reason: 'unknown-id' };
      }
      const info = (await this.redis.call('XINFO', 'STREAM', this.#key).catch(() => [])) as unknown[];
      const at = info.indexOf('max-deleted-entry-id');
      const trimmedUpTo = at >= 0 ? String(info[at + 1]) : '0-0';
      const { entries, cut } = await this.#newest(`(${parsed.position}`, maxBytes);
      if (comparePositions(parsed.position, trimmedUpTo) < 0) {
        return { kind: 'gap', entries, oldest: entries[0]?.id ?? null, missed: null, reason: 'evicted' };
      }
      if (cut) return { kind: 'gap', entries, oldest: entries[0]?.id ?? null, missed: await this.#count(`(${parsed.position}`, cut), reason: 'over-limit' };
      return { kind: 'ok', entries };
    });
  }

  /**
   * How many entries lie from `from` to `to` (both as XRANGE takes them), counted by Redis itself a page
   * at a time: an over-limit replay says how many it left out, not `null`, without sending them here.
   * Bounded by the replay window (the stream is trimmed to about `capacity`), in runs of COUNT_PAGES
   * pages: other clients' commands go between them.
   */
  async #count(from: string, to: string): Promise<number> {
    let n = 0;
    for (let at: string | null = from; at !== null; ) {
      const [counted, next] = (await this.redis.eval(COUNT_RANGE, 1, this.#key, at, to, String(COUNT_PAGES))) as [number, string | null];
      n += Number(counted);
      at = typeof next === 'string' ? next : null;
    }
    return n;
  }

  /**
   * The newest entries from `from` (`-`, or `(position`) whose texts add up to at most `maxBytes` characters and
   * that number at most `capacity`, read newest first a page at a time: a reconnect (with an unknown id, or an old
   * one) costs Redis and this process what its client can take, not the whole window. `cut`: older ones were left.
   * A page's sizes come first; its texts only for the entries that fit, shared with every other replay.
   */
  async #newest(from: string, maxBytes: number): Promise<{ entries: Entry[]; cut: string | undefined }> {
    const out: Entry[] = [];
    let bytes = 0;
    let end = '+';
    // Pages grow from small: a client that takes a few large events is not sent hundreds.
    for (let count = 16; ; count = Math.min(count * 2, REPLAY_PAGE)) {
      const sizes = (await this.redis.eval(PAGE_SIZES, 1, this.#key, end, from, String(count))) as (string | number)[];
      const positions: string[] = [];
      // `cut`: the newest entry left out; it and every older one after `from` are what the replay misses.
      let cut: string | undefined;
      for (let i = 0; i < sizes.length && cut === undefined; i += 2) {
        bytes += Number(sizes[i + 1]);
        if (bytes > maxBytes) cut = sizes[i] as string;
        else positions.push(sizes[i] as string);
      }
      const entries = await this.replayed.read(this.redis, this.#key, this.#epoch, positions);
      for (const [i, entry] of entries.entries()) {
        if (out.length >= this.capacity) return { entries: out.reverse(), cut: positions[i] };
        if (entry) out.push(entry);
      }
      if (cut !== undefined || sizes.length < 2 * count) return { entries: out.reverse(), cut };
      end = `(${sizes[sizes.length - 2] as string}`;
    }
  }

  compare(a: string, b: string): number {
    return comparePositions(a.slice(a.indexOf('.') + 1), b.slice(b.indexOf('.') + 1));
  }

  /** Gives up after 5 s (Redis unreachable): what is queued stays queued. */
  async drain(): Promise<void> {
    const until = performance.now() + 5000;
    while (!this.#closed && performance.now() < until && (this.#queue.size > 0 || comparePositions(this.#seen, this.#appended) < 0)) await sleep(5);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subscribers.clear();
    this.reader.disconnect();
  }
}
