/**
 * The Redis session store, shared by every replica. Keys (under `prefix`):
 *   s:<id>      hash: id, title, createdAt, prompts, options, lastResult (JSON), running (owner), resumeAt (JSON), clearedFrom
 *   sessions    sorted set of ids by creation time
 *   m:<id>      list: the conversation, one JSON message per element
 *   c:<id>      hash: pending control requests by id
 *   lease:<id>  the prompt lease (owner, with an expiry: the heartbeat renews it)
 *   running     set of ids marked running (where the sweep looks for orphans)
 *   fence:<id>  the current lease's fencing token (deleted when its orphan is claimed)
 *   fences      the last fencing token given out (INCR: tokens are unique in the store)
 *   replica:<r> pub/sub channel of replica r (forwarded calls and replies)
 * Lease changes are Lua scripts, so "one prompt per session" holds across replicas.
 */
import type { Redis } from 'ioredis';
import { WasmhooksError } from '../errors.js';
import type { LineLimits } from '../lines.js';
import type { Message } from '../models/types.js';
import type { ControlRequest } from '../server/control-types.js';
import { duplicate, guarded } from './redis-client.js';
import { hashOf, readHash, readMessages } from './redis-read.js';
import { FENCE_MAX, ACQUIRE, RENEW, RENEW_FENCED, MESSAGES, RELEASE, UPDATE, CLAIM_ORPHAN } from './redis-scripts.js';
import { parseObject, readObject, toRecord } from './redis-record.js';
import { TRANSCRIPT_LIMITS, type ReplicaMessage, type SessionRecord, type SessionStore } from './types.js';

export class RedisSessionStore implements SessionStore {
  readonly kind = 'redis' as const;
  readonly shared = true;
  #subscriber: Redis | undefined;
  readonly #listeners = new Map<string, (message: ReplicaMessage) => void>();

  constructor(
    private readonly redis: Redis,
    private readonly url: string,
    private readonly prefix = 'wasmhooks:',
    /** What reading a conversation, or a page of it, may take in (redis-read.ts). */
    private readonly limits: LineLimits = TRANSCRIPT_LIMITS,
  ) {}

  #k(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  #call<T>(fn: () => Promise<T>): Promise<T> {
    return guarded(this.url, fn);
  }

  async create(record: SessionRecord): Promise<boolean> {
    return this.#call(async () => {
      const key = this.#k('s', record.id);
      if ((await this.redis.hsetnx(key, 'id', record.id)) === 0) return false;
      const fields: Record<string, string> = {
        createdAt: String(record.createdAt),
        prompts: String(record.prompts),
        options: JSON.stringify(record.options),
      };
      if (record.title !== undefined) fields.title = record.title;
      if (record.clearedFrom !== undefined) fields.clearedFrom = record.clearedFrom;
      if (record.lastResult) fields.lastResult = JSON.stringify(record.lastResult);
      await this.redis.multi().hset(key, fields).zadd(this.#k('sessions'), String(record.createdAt), record.id).exec();
      return true;
    });
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const key = this.#k('s', id);
    return this.#call(async () => toRecord(hashOf(await readHash(this.redis, key, this.limits.maxBytes), key, this.limits.maxBytes), id, key));
  }

  async count(): Promise<number> {
    return this.#call(() => this.redis.zcard(this.#k('sessions')));
  }

  async list(page?: { offset: number; limit: number }): Promise<SessionRecord[]> {
    return this.#call(async () => {
      const [start, stop] = page ? [page.offset, page.offset + page.limit - 1] : [0, -1];
      const ids = await this.redis.zrange(this.#k('sessions'), String(start), String(stop));
      if (ids.length === 0) return [];
      const pipe = this.redis.pipeline();
      for (const id of ids) readHash(pipe, this.#k('s', id), this.limits.maxBytes);
      const rows = (await pipe.exec()) ?? [];
      // A damaged row is left out of lists (GET /session of every client failed on it); reading it alone names it.
      return rows.flatMap(([, row], i) => {
        try {
          const record = toRecord(hashOf(row, '', this.limits.maxBytes), ids[i]!, '');
          return record ? [record] : [];
        } catch {
          return [];
        }
      });
    });
  }

  async update(id: string, patch: Partial<Pick<SessionRecord, 'prompts' | 'lastResult' | 'resumeAt'>>, fence?: number): Promise<boolean> {
    const fields: string[] = [];
    if (patch.prompts !== undefined) fields.push('prompts', String(patch.prompts));
    if (patch.lastResult !== undefined) fields.push('lastResult', JSON.stringify(patch.lastResult));
    const r = patch.resumeAt;
    if (fields.length === 0 && !r) return true;
    // One script: only an existing session is updated (a deleted one is not brought back), and `resumeAt`
    // only when it replaces the stored one, decided where it is stored (two replicas may write at once).
    const resumeAt = r ? [String(r.turn), r.open ? '1' : '0', String(r.seq), JSON.stringify(r)] : ['0', '0', '0', ''];
    const keys = [this.#k('s', id), this.#k('fence', id)];
    return this.#call(async () => (await this.redis.eval(UPDATE, 2, ...keys, ...resumeAt, fence === undefined ? '' : String(fence), ...fields)) !== -1);
  }

  async delete(id: string): Promise<void> {
    await this.#call(() =>
      this.redis
        .multi()
        .del(this.#k('s', id), this.#k('m', id), this.#k('c', id), this.#k('lease', id), this.#k('fence', id))
        .zrem(this.#k('sessions'), id)
        .srem(this.#k('running'), id)
        .exec(),
    );
  }

  async appendMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean> {
    if (messages.length === 0 && fence === undefined) return true;
    return this.#messages(id, 'append', messages, fence);
  }

  async replaceMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean> {
    return this.#messages(id, 'replace', messages, fence);
  }

  /** One script: the token's check and the write cannot be split by another replica's take-over. */
  #messages(id: string, how: 'append' | 'replace', messages: readonly Message[], fence: number | undefined): Promise<boolean> {
    const keys = [this.#k('m', id), this.#k('fence', id)];
    const args = [fence === undefined ? '' : String(fence), how, ...messages.map((m) => JSON.stringify(m))];
    return this.#call(async () => (await this.redis.eval(MESSAGES, 2, ...keys, ...args)) === 1);
  }

  async messages(id: string, page?: { offset: number; limit: number }): Promise<Message[]> {
    // Read whole (a session rebuilt, a resume) or a page: within TRANSCRIPT_LIMITS, as a file store's transcript.
    const { maxLines } = this.limits;
    const [start, stop] = page ? [page.offset, page.offset + page.limit - 1] : [0, maxLines];
    const key = this.#k('m', id);
    const raw = await this.#call(() => readMessages(this.redis, key, id, start, stop, this.limits));
    if (!page && raw.length > maxLines) throw new WasmhooksError('STORE_UNAVAILABLE', `${key} holds more than ${maxLines} messages (maxTranscriptLines); nothing was loaded`);
    return raw.map((m, i) => readObject(m, key, `message ${start + i}`) as unknown as Message);
  }

  async messageCount(id: string): Promise<number> {
    return this.#call(() => this.redis.llen(this.#k('m', id)));
  }

  transcriptPath(_id: string): string | undefined {
    return undefined;
  }

  /** Redis acknowledges each write; its own persistence settings (AOF fsync) decide what survives its crash. */
  async sync(_id: string): Promise<void> {}

  async putControl(request: ControlRequest): Promise<void> {
    await this.#call(() => this.redis.hset(this.#k('c', request.sessionId), request.id, JSON.stringify(request)));
  }

  async deleteControl(sessionId: string, requestId: string): Promise<boolean> {
    return this.#call(async () => (await this.redis.hdel(this.#k('c', sessionId), requestId)) === 1);
  }

  async controls(sessionId: string): Promise<ControlRequest[]> {
    return this.#call(async () => {
      // An entry that is no request of this session under its own id (damaged, or another program's) is not one.
      const key = this.#k('c', sessionId);
      const all = Object.entries(hashOf(await readHash(this.redis, key, this.limits.maxBytes), key, this.limits.maxBytes)).flatMap(([field, v]) => {
        const r = parseObject(v) as Partial<ControlRequest> | undefined;
        return r && r.id === field && r.sessionId === sessionId && typeof r.createdAt === 'number' ? [r as ControlRequest] : [];
      });
      return all.sort((a, b) => a.createdAt - b.createdAt);
    });
  }

  async acquire(id: string, owner: string, ttlMs: number): Promise<number | false> {
    const keys = [this.#k('lease', id), this.#k('s', id), this.#k('running'), this.#k('fence', id), this.#k('fences')];
    return this.#call(async () => {
      const fence = Number(await this.redis.eval(ACQUIRE, 5, ...keys, owner, ttlMs, id));
      if (fence === -1) {
        throw new WasmhooksError('STORE_UNAVAILABLE', `${this.#k('fences')} is not a fencing-token counter (a whole number below ${FENCE_MAX}); no prompt can start until it is repaired (set it to a number above every token given out)`);
      }
      return fence > 0 ? fence : false;
    });
  }

  async renew(id: string, owner: string, ttlMs: number, fence?: number): Promise<boolean> {
    if (fence === undefined) return this.#call(async () => (await this.redis.eval(RENEW, 1, this.#k('lease', id), owner, ttlMs)) === 1);
    const keys = [this.#k('lease', id), this.#k('fence', id), this.#k('s', id)];
    return this.#call(async () => (await this.redis.eval(RENEW_FENCED, 3, ...keys, owner, ttlMs, String(fence))) === 1);
  }

  async release(id: string, owner: string): Promise<void> {
    await this.#call(() => this.redis.eval(RELEASE, 3, this.#k('lease', id), this.#k('s', id), this.#k('running'), owner, id));
  }

  async leaseOwner(id: string): Promise<string | undefined> {
    return this.#call(async () => (await this.redis.get(this.#k('lease', id))) ?? undefined);
  }

  async orphans(): Promise<{ id: string; owner: string }[]> {
    return this.#call(async () => {
      const ids = await this.redis.smembers(this.#k('running'));
      if (ids.length === 0) return [];
      const pipe = this.redis.pipeline();
      for (const id of ids) pipe.hget(this.#k('s', id), 'running').exists(this.#k('lease', id));
      const rows = (await pipe.exec()) ?? [];
      const out: { id: string; owner: string }[] = [];
      ids.forEach((id, i) => {
        const owner = rows[2 * i]?.[1] as string | null;
        const leased = rows[2 * i + 1]?.[1] as number;
        if (owner && !leased) out.push({ id, owner });
      });
      return out;
    });
  }

  async claimOrphan(id: string, owner: string): Promise<boolean> {
    const keys = [this.#k('lease', id), this.#k('s', id), this.#k('running'), this.#k('fence', id)];
    return this.#call(async () => (await this.redis.eval(CLAIM_ORPHAN, 4, ...keys, owner, id)) === 1);
  }

  async send(to: string, message: ReplicaMessage): Promise<void> {
    await this.#call(() => this.redis.publish(this.#k('replica', to), JSON.stringify(message)));
  }

  async listen(replica: string, fn: (message: ReplicaMessage) => void): Promise<() => void> {
    if (!this.#subscriber) {
      const sub = await duplicate(this.redis, this.url);
      sub.on('message', (channel: string, text: string) => {
        const listener = this.#listeners.get(channel);
        if (!listener) return;
        try {
          const message = JSON.parse(text) as ReplicaMessage;
          if (message && (message.kind === 'call' || message.kind === 'reply') && typeof message.callId === 'string') listener(message);
        } catch {
          // Not one of ours: ignored.
        }
      });
      this.#subscriber = sub;
    }
    const channel = this.#k('replica', replica);
    this.#listeners.set(channel, fn);
    await this.#call(() => (this.#subscriber as Redis).subscribe(channel));
    return () => {
      this.#listeners.delete(channel);
      void this.#subscriber?.unsubscribe(channel).catch(() => {});
    };
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    this.#subscriber?.disconnect();
    this.#subscriber = undefined;
  }
}
