/**
 * The event hub: publishes into the event log (which assigns the SSE ids and
 * holds the replay window) and fans every logged event out to the connected
 * SSE clients. `publish` never blocks: a client whose queue passes
 * `clientQueueLimit` is disconnected (it can reconnect with `Last-Event-ID`
 * and replay) instead of slowing the others down. With a shared log (Redis)
 * the events of every replica arrive here through the log's subscription.
 */
import { MemoryEventLog } from '../store/memory-log.js';
import type { EventLog, Since } from '../store/types.js';
import { HEARTBEAT, frame, type ServerEvent, type ServerEventPayloads, type StreamEvent } from './events.js';
import type { Entry } from './ring.js';

const encoder = new TextEncoder();

export interface StreamRequest {
  /** Only events of this session (plus server-wide ones). */
  session?: string;
  /** Wrap each event as `{ sessionId, event }`. */
  envelope: boolean;
  /** From the `Last-Event-ID` header; undefined for a fresh connection. */
  lastEventId?: string;
  /** Ends the stream (the request's signal). */
  signal?: AbortSignal;
}

interface Client {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Frames published in this tick, written as one chunk by `#flush`. */
  pending: Uint8Array[];
  /** Live entries that arrived while the replay was being read (null once live). */
  held: Entry[] | null;
  session: string | undefined;
  envelope: boolean;
  close(): void;
}

export interface HubOptions {
  replayBufferSize: number;
  heartbeatMs: number;
  clientQueueLimit: number;
  retryMs: number;
}

export class EventHub {
  readonly #log: EventLog;
  readonly #clients = new Set<Client>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  readonly #dirty = new Set<Client>();
  #flushQueued = false;
  #closed = false;
  readonly #unsubscribe: () => void;

  constructor(
    private readonly options: HubOptions,
    log: EventLog = new MemoryEventLog(options.replayBufferSize),
  ) {
    this.#log = log;
    this.#unsubscribe = log.subscribe((entry) => {
      for (const client of this.#clients) this.#send(client, entry);
    });
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  /** The newest event id delivered here. */
  get lastId(): string {
    return this.#log.lastId();
  }

  get log(): EventLog {
    return this.#log;
  }

  publish(event: StreamEvent): void {
    if (this.#closed) return;
    this.#log.append(event);
  }

  /** Builds and publishes a server event. */
  emit<K extends keyof ServerEventPayloads>(type: K, payload: ServerEventPayloads[K]): void {
    this.publish({ type, time: Date.now(), ...payload } as ServerEvent);
  }

  /** A new SSE body: `server.connected`, then the replay (after a `replay.gap` if needed), then live events. */
  open(request: StreamRequest): ReadableStream<Uint8Array> {
    let client: Client | undefined;
    return new ReadableStream<Uint8Array>({
      start: async (controller) => {
        if (this.#closed) return controller.close();
        const resumeFrom = request.lastEventId ?? this.#log.lastId();
        const wrap = (event: ServerEvent): unknown => (request.envelope ? { sessionId: null, event } : event);
        const connected: ServerEvent = {
          type: 'server.connected',
          time: Date.now(),
          lastEventId: resumeFrom,
          replayBufferSize: this.#log.capacity,
        };
        controller.enqueue(encoder.encode(`retry: ${this.options.retryMs}\n\n`));
        controller.enqueue(frame(resumeFrom, wrap(connected)));
        const c: Client = {
          controller,
          pending: [],
          held: request.lastEventId === undefined ? null : [],
          session: request.session,
          envelope: request.envelope,
          close: () => {
            if (!this.#clients.delete(c)) return;
            this.#dirty.delete(c);
            request.signal?.removeEventListener('abort', c.close);
            this.#stopHeartbeatIfIdle();
            try {
              controller.close();
            } catch {
              // Already closed or cancelled by the reader.
            }
          },
        };
        client = c;
        // Live from now on (held while the replay is read, so nothing falls between the two).
        this.#clients.add(c);
        request.signal?.addEventListener('abort', c.close, { once: true });
        this.#startHeartbeat();
        if (request.lastEventId !== undefined) await this.#replay(c, request.lastEventId, wrap);
      },
      cancel: () => client?.close(),
    });
  }

  async #replay(c: Client, after: string, wrap: (event: ServerEvent) => unknown): Promise<void> {
    let since: Since;
    try {
      since = await this.#log.since(after);
    } catch {
      // The log is unreachable (Redis down): say the replay could not be done, then go live.
      since = { kind: 'gap', entries: [], oldest: null, missed: null, reason: 'unknown-id' };
    }
    if (!this.#clients.has(c)) return;
    if (since.kind === 'gap') {
      const gap: ServerEvent = {
        type: 'replay.gap',
        time: Date.now(),
        requestedAfter: after,
        oldestAvailable: since.oldest,
        missed: since.missed,
        reason: since.reason,
      };
      c.controller.enqueue(frame(after, wrap(gap)));
    }
    let last = since.entries.at(-1)?.id;
    for (const entry of since.entries) this.#send(c, entry, true);
    const held = c.held ?? [];
    c.held = null;
    for (const entry of held) {
      if (last !== undefined && this.#log.compare(entry.id, last) <= 0) continue;
      last = entry.id;
      this.#send(c, entry);
    }
  }

  /**
   * Ends every stream with a `server.closing` event, after what was already
   * published has reached each client's stream (up to `graceMs`); later
   * publishes are ignored.
   */
  async close(graceMs = 1000): Promise<void> {
    if (this.#closed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#log.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.#closed = true;
    this.#unsubscribe();
    this.#flush();
    const closing: ServerEvent = { type: 'server.closing', time: Date.now(), reason: 'shutdown' };
    const lastId = this.#log.lastId();
    for (const client of this.#clients) {
      try {
        client.controller.enqueue(frame(lastId, client.envelope ? { sessionId: null, event: closing } : closing));
      } catch {
        // Cancelled meanwhile.
      }
    }
    // Let the runtime take the queued frames before the streams end (desiredSize back to 1: queue empty).
    const until = Date.now() + graceMs;
    while (Date.now() < until && [...this.#clients].some((c) => (c.controller.desiredSize ?? 1) < 1)) await sleep(10);
    for (const client of [...this.#clients]) client.close();
    this.#stopHeartbeatIfIdle();
  }

  #send(client: Client, entry: Entry, replay = false): void {
    if (client.held && !replay) {
      client.held.push(entry);
      return;
    }
    if (client.session !== undefined && entry.sessionId !== null && entry.sessionId !== client.session) return;
    client.pending.push(client.envelope ? entry.global() : entry.plain());
    this.#dirty.add(client);
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  /** One chunk per client per tick: fewer writes when events come in bursts. */
  #flush(): void {
    this.#flushQueued = false;
    for (const client of this.#dirty) {
      const frames = client.pending;
      client.pending = [];
      const size = client.controller.desiredSize;
      if (size !== null && -size >= this.options.clientQueueLimit) {
        client.close();
        continue;
      }
      try {
        client.controller.enqueue(frames.length === 1 ? (frames[0] as Uint8Array) : concat(frames));
      } catch {
        // The stream was cancelled in a way that did not reach `cancel` first: drop the client, spare the others.
        client.close();
      }
    }
    this.#dirty.clear();
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) {
        try {
          client.controller.enqueue(HEARTBEAT);
        } catch {
          client.close();
        }
      }
    }, this.options.heartbeatMs);
  }

  #stopHeartbeatIfIdle(): void {
    if (this.#heartbeat !== undefined && this.#clients.size === 0) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function concat(chunks: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const c of chunks) length += c.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
