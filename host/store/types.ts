/**
 * The storage contracts behind durable sessions: a `SessionStore` (session
 * records, conversations, pending control requests, and the coordination
 * replicas need: prompt leases and replica-to-replica messages) and an
 * `EventLog` (every published stream event under an id that carries the
 * log's epoch). Three implementations: memory (the library default), a data
 * directory (the default of `serve`), Redis (replicas).
 */
import type { AgentResult } from '../events/types.js';
import type { LineLimits } from '../lines.js';
import type { Message } from '../models/types.js';
import type { Entry } from '../server/ring.js';
import type { ControlRequest } from '../server/control-types.js';
import type { StreamEvent } from '../server/events.js';

/** Per-session options the server applies each time it (re)builds the session. */
export interface StoredSessionOptions {
  permissionMode?: 'default' | 'acceptEdits' | 'bypassPermissions' | 'dontAsk';
  systemPrompt?: string;
  maxTurns?: number;
  hookCallbacks?: string[];
}

/** The last result as stored: what `GET /session/:id` shows. */
export interface StoredResult {
  subtype: AgentResult['subtype'];
  text: string;
  turns: number;
  durationMs: number;
  error?: { code: string; message: string };
}

export interface SessionRecord {
  id: string;
  title?: string;
  createdAt: number;
  /** Prompts started, over the session's whole life. */
  prompts: number;
  options: StoredSessionOptions;
  lastResult?: StoredResult;
  /** The replica running a prompt now (set with the lease, cleared when the prompt ends or is found interrupted). */
  running?: string;
  /** Where a session object rebuilt from the store goes on counting (reserved as each prompt starts, exact at its end; never moved back). */
  resumeAt?: ResumeAt;
  /** The session cleared to start this one (`POST /session/:id/clear`): its first prompt fires SessionStart `clear`. */
  clearedFrom?: string;
}

/**
 * The counters a session continued from a store resumes after, so that its events keep one
 * `seq` order and its prompts one numbering across restarts and replicas (docs/events.md).
 */
export interface ResumeAt {
  /** The `seq` of the last event the session emitted. */
  seq: number;
  /** The number of its last prompt (`agent.start`'s `turn`). */
  turn: number;
  /**
   * Prompt `turn` had not ended when this was written: `seq` is a bound reserved ahead of its events
   * (host/store/resume-at.ts), so a prompt that never ends is counted past, not repeated.
   */
  open?: true;
}

/**
 * The largest `resumeAt` counter a session takes (2^50, ~10^15 events): a session counting on from it
 * stays far below 2^53, where `seq + 1` stops increasing and every event would carry the same `seq`.
 */
export const RESUME_AT_MAX = 2 ** 50;

/**
 * Bytes of transcripts a file store keeps in memory together (its cache; the least recently used go first),
 * `maxCachedTranscriptBytes` of `openStore`. One transcript in use may pass it: a transcript is kept whole.
 */
export const TRANSCRIPT_CACHE_BYTES = 256 << 20;

/**
 * What one transcript may hold (a file store: `openStore({ kind: 'file', … })` takes others; Redis: its count and bytes when read whole): far past a conversation within
 * the loop's default caps (10,000 messages, 32,000,000 characters), and a bound on what loading a session
 * (a resume, a prompt after a restart, a page of its messages) holds in memory.
 */
export const TRANSCRIPT_LIMITS: Readonly<LineLimits> = Object.freeze({ maxBytes: 256 << 20, maxLineBytes: 128 << 20, maxLines: 100_000 });

/** A message between replicas (control answers and aborts routed to a prompt's owner). */
export type ReplicaMessage =
  | { kind: 'call'; callId: string; from: string; body: unknown }
  | { kind: 'reply'; callId: string; body: unknown };

/**
 * Sessions, conversations and pending questions. Every method may reject
 * with `WasmhooksError('STORE_UNAVAILABLE')` when the backing service is
 * unreachable; nothing is half-applied in that case beyond one message.
 */
export interface SessionStore {
  readonly kind: 'memory' | 'file' | 'redis';
  /** Whether other processes share this store (then a cached conversation may be stale). */
  readonly shared: boolean;
  /** False when a session with this id exists already. */
  create(record: SessionRecord): Promise<boolean>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** The sessions in creation order; with `page`, only `limit` of them from number `offset` (a page is read, not the whole store). */
  list(page?: { offset: number; limit: number }): Promise<SessionRecord[]>;
  /** How many sessions there are (without reading them). */
  count(): Promise<number>;
  /**
   * Patches an existing record; a `resumeAt` is only stored when it `replaces` the stored one (resume-at.ts): never moved back.
   * With `fence` (a token from `acquire`), applied only while it is the session's current lease token; false when it is not.
   */
  update(id: string, patch: Partial<Pick<SessionRecord, 'prompts' | 'lastResult' | 'resumeAt'>>, fence?: number): Promise<boolean>;
  delete(id: string): Promise<void>;

  /** Appends to the conversation (creates it if needed). With `fence`: as `update`, nothing written and false once it is not current. */
  appendMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean>;
  /** Replaces the whole conversation (after a compaction). With `fence`: as `update`. */
  replaceMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean>;
  /** The conversation; with `page`, only `limit` messages from number `offset` (a page is read and copied, not the whole conversation). */
  messages(id: string, page?: { offset: number; limit: number }): Promise<Message[]>;
  /** How many messages the conversation holds (without reading them). */
  messageCount(id: string): Promise<number>;
  /** Where the conversation lives as a JSONL file, when it does (hook inputs carry it as `transcript_path`). */
  transcriptPath(id: string): string | undefined;
  /** A durability point (a prompt ended, a session closed): what was written survives a crash. */
  sync(id: string): Promise<void>;

  putControl(request: ControlRequest): Promise<void>;
  /** True when this call removed it (exactly one caller wins). */
  deleteControl(sessionId: string, requestId: string): Promise<boolean>;
  controls(sessionId: string): Promise<ControlRequest[]>;

  /**
   * Takes the prompt lease of a session for `owner` for `ttlMs` and marks the
   * session running. False when another owner holds it (one prompt per
   * session across replicas). Not re-entrant: false too while the session
   * is still marked running, by anyone, until the sweep clears an orphan.
   * Returns the lease's fencing token: unique in the store, current until the
   * session is acquired again or its orphan claimed (never by mere expiry), so
   * writes made with it (`update`, `appendMessages`, `replaceMessages`) go on
   * while nobody took the session and can never land after someone did.
   */
  acquire(id: string, owner: string, ttlMs: number): Promise<number | false>;
  /**
   * Extends a held lease; false when it was lost (expired and taken, or the session is gone). With `fence`,
   * true as long as that token is current: a lease that lapsed but that nobody took is taken again.
   */
  renew(id: string, owner: string, ttlMs: number, fence?: number): Promise<boolean>;
  /** Ends the lease and the running mark, if `owner` still holds them. */
  release(id: string, owner: string): Promise<void>;
  leaseOwner(id: string): Promise<string | undefined>;
  /** Sessions marked running whose lease has expired: their owner died mid-prompt. */
  orphans(): Promise<{ id: string; owner: string }[]>;
  /** Clears an orphan's running mark and ends its fencing token (a take-over); true for exactly one caller. */
  claimOrphan(id: string, owner: string): Promise<boolean>;

  /** Delivers `message` to the replica `to` (dropped if it is not listening). */
  send(to: string, message: ReplicaMessage): Promise<void>;
  /** Receives messages sent to `replica`. */
  listen(replica: string, fn: (message: ReplicaMessage) => void): Promise<() => void>;

  close(): Promise<void>;
}

/** What `since` found. */
export type Since =
  | { kind: 'ok'; entries: Entry[] }
  /**
   * Some events after the requested id are gone (or the id is not from this log, or `maxBytes` stopped the read:
   * `over-limit`); `entries` is what was read, the newest.
   */
  | { kind: 'gap'; entries: Entry[]; oldest: string | null; missed: number | null; reason: 'evicted' | 'unknown-id' | 'over-limit' };

/**
 * Every published event, in one order, under ids `<epoch>.<position>`. The
 * epoch changes whenever the log starts empty (a new process for the memory
 * and file stores, a Redis that lost its data), so an id from elsewhere or
 * from before is never mistaken for a position in this log.
 */
export interface EventLog {
  readonly epoch: string;
  /** Events the replay window holds at most. */
  readonly capacity: number;
  /** Adds an event; appends keep their order. Delivery is through `subscribe`. */
  append(event: StreamEvent): void;
  /** Called with every appended entry in log order (from any replica, for a shared log). */
  subscribe(fn: (entry: Entry) => void): () => void;
  /** The newest id delivered to subscribers here (`<epoch>.0` before any). */
  lastId(): string;
  /**
   * Held entries after `afterId`; with `maxBytes`, only the newest whose event texts add up to at most that many
   * characters (the replay a client can take): the work of a reconnect is bounded by it, not by the window, for an
   * unknown id too.
   */
  since(afterId: string, maxBytes?: number): Promise<Since>;
  /** Negative, zero or positive as `a` is before, at or after `b` (both of this epoch). */
  compare(a: string, b: string): number;
  /** Resolves when every append so far has been delivered to subscribers (or after a few seconds when the log is unreachable). */
  drain(): Promise<void>;
  close(): Promise<void>;
}
