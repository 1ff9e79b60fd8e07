/**
 * The in-process session store: the library's default and the base of the
 * file store (which adds a data directory under it). Leases and replica
 * messages stay inside this process.
 */
import type { Message } from '../models/types.js';
import type { ControlRequest } from '../server/control-types.js';
import type { ReplicaMessage, SessionRecord, SessionStore } from './types.js';
import { replaces } from './resume-at.js';

interface Lease {
  owner: string;
  until: number;
}

export class MemorySessionStore implements SessionStore {
  readonly kind: 'memory' | 'file' = 'memory';
  readonly shared = false;
  protected readonly records = new Map<string, SessionRecord>();
  protected readonly conversations = new Map<string, Message[]>();
  readonly #controls = new Map<string, Map<string, ControlRequest>>();
  /** In this process only, so `until` is on `performance.now()`: a wall-clock step neither ends nor stretches a lease. */
  readonly #leases = new Map<string, Lease>();
  readonly #listeners = new Map<string, (message: ReplicaMessage) => void>();
  /** Each session's current fencing token (none once claimed as an orphan); tokens are unique in the store. */
  readonly #fences = new Map<string, number>();
  #lastFence = 0;

  /** Whether a write carrying `fence` may land (no fence: always). */
  protected fenced(id: string, fence: number | undefined): boolean {
    return fence === undefined || this.#fences.get(id) === fence;
  }

  async create(record: SessionRecord): Promise<boolean> {
    if (this.records.has(record.id)) return false;
    this.records.set(record.id, structuredClone(record));
    return true;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const r = this.records.get(id);
    return r && structuredClone(r);
  }

  async count(): Promise<number> {
    return this.records.size;
  }

  async list(page?: { offset: number; limit: number }): Promise<SessionRecord[]> {
    const all = [...this.records.values()];
    return (page ? all.slice(page.offset, page.offset + page.limit) : all).map((r) => structuredClone(r));
  }

  async update(id: string, patch: Partial<Pick<SessionRecord, 'prompts' | 'lastResult' | 'resumeAt'>>, fence?: number): Promise<boolean> {
    if (!this.fenced(id, fence)) return false;
    const r = this.records.get(id);
    if (!r) return true;
    // A stale writer (a prompt whose lease was lost, overtaken by the next one) does not move the counters back.
    const { resumeAt, ...rest } = patch;
    Object.assign(r, structuredClone(rest), resumeAt && replaces(resumeAt, r.resumeAt) ? { resumeAt: structuredClone(resumeAt) } : {});
    return true;
  }

  async delete(id: string): Promise<void> {
    this.records.delete(id);
    this.conversations.delete(id);
    this.#controls.delete(id);
    this.#leases.delete(id);
    this.#fences.delete(id);
  }

  async appendMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean> {
    if (!this.fenced(id, fence)) return false;
    const list = this.conversations.get(id) ?? [];
    list.push(...structuredClone(messages));
    this.conversations.set(id, list);
    return true;
  }

  async replaceMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean> {
    if (!this.fenced(id, fence)) return false;
    this.conversations.set(id, structuredClone([...messages]));
    return true;
  }

  async messages(id: string, page?: { offset: number; limit: number }): Promise<Message[]> {
    const all = this.conversations.get(id) ?? [];
    return structuredClone(page ? all.slice(page.offset, page.offset + page.limit) : all);
  }

  async messageCount(id: string): Promise<number> {
    return this.conversations.get(id)?.length ?? 0;
  }

  transcriptPath(_id: string): string | undefined {
    return undefined;
  }

  async sync(_id: string): Promise<void> {}

  async putControl(request: ControlRequest): Promise<void> {
    const map = this.#controls.get(request.sessionId) ?? new Map<string, ControlRequest>();
    map.set(request.id, request);
    this.#controls.set(request.sessionId, map);
  }

  async deleteControl(sessionId: string, requestId: string): Promise<boolean> {
    return this.#controls.get(sessionId)?.delete(requestId) ?? false;
  }

  async controls(sessionId: string): Promise<ControlRequest[]> {
    return [...(this.#controls.get(sessionId)?.values() ?? [])];
  }

  async acquire(id: string, owner: string, ttlMs: number): Promise<number | false> {
    const record = this.records.get(id);
    if (!record) return false;
    const lease = this.#leases.get(id);
    // Not re-entrant: a session still marked running (even by this owner, before a crash) waits for the sweep.
    if ((lease && lease.until > performance.now()) || record.running !== undefined) return false;
    this.#leases.set(id, { owner, until: performance.now() + ttlMs });
    record.running = owner;
    const fence = ++this.#lastFence;
    this.#fences.set(id, fence);
    await this.persist(id);
    return fence;
  }

  async renew(id: string, owner: string, ttlMs: number, fence?: number): Promise<boolean> {
    if (fence !== undefined) {
      // Nobody acquired or claimed the session since: the lease is still this prompt's, even if it lapsed.
      if (!this.records.has(id) || this.#fences.get(id) !== fence) return false;
      this.#leases.set(id, { owner, until: performance.now() + ttlMs });
      return true;
    }
    const lease = this.#leases.get(id);
    if (!lease || lease.owner !== owner || !this.records.has(id)) return false;
    lease.until = performance.now() + ttlMs;
    return true;
  }

  async release(id: string, owner: string): Promise<void> {
    if (this.#leases.get(id)?.owner === owner) this.#leases.delete(id);
    const record = this.records.get(id);
    if (record?.running === owner) {
      delete record.running;
      await this.persist(id);
    }
  }

  async leaseOwner(id: string): Promise<string | undefined> {
    const lease = this.#leases.get(id);
    return lease && lease.until > performance.now() ? lease.owner : undefined;
  }

  async orphans(): Promise<{ id: string; owner: string }[]> {
    const now = performance.now();
    const out: { id: string; owner: string }[] = [];
    for (const r of this.records.values()) {
      const lease = this.#leases.get(r.id);
      if (r.running && !(lease && lease.until > now)) out.push({ id: r.id, owner: r.running });
    }
    return out;
  }

  async claimOrphan(id: string, owner: string): Promise<boolean> {
    const record = this.records.get(id);
    if (record?.running !== owner) return false;
    delete record.running;
    this.#leases.delete(id);
    this.#fences.delete(id);
    await this.persist(id);
    return true;
  }

  async send(to: string, message: ReplicaMessage): Promise<void> {
    const fn = this.#listeners.get(to);
    if (fn) queueMicrotask(() => fn(message));
  }

  async listen(replica: string, fn: (message: ReplicaMessage) => void): Promise<() => void> {
    this.#listeners.set(replica, fn);
    return () => void this.#listeners.delete(replica);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }

  /** Hook for the file store: the record of `id` changed. */
  protected async persist(_id: string): Promise<void> {}
}
