/**
 * The event hub: assigns SSE ids, keeps the replay ring, and fans every event
 * out to the connected SSE clients. `publish` never blocks: a client whose
 * queue passes `clientQueueLimit` is disconnected (it can reconnect with
 * `Last-Event-ID` and replay) instead of slowing the others down.
 */
import { HEARTBEAT, frame, type ServerEvent, type ServerEventPayloads, type StreamEvent } from './events.js';
import { Ring, type Entry } from './ring.js';

const encoder = new TextEncoder();

export interface StreamRequest {
  /** Only events of this session (plus server-wide ones). */
  session?: string;
  /** Wrap each event as `{ sessionId, event }`. */
  envelope: boolean;
  /** From the `Last-Event-ID` header; undefined for a fresh connection. */
  lastEventId?: number;
  /** Ends the stream (the request's signal). */
  signal?: AbortSignal;
}

interface Client {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Frames published in this tick, written as one chunk by `#flush`. */
  pending: Uint8Array[];
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
  readonly #ring: Ring;
  readonly #clients = new Set<Client>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  readonly #dirty = new Set<Client>();
  #flushQueued = false;
  #closed = false;

  constructor(private readonly options: HubOptions) {
    this.#ring = new Ring(options.replayBufferSize);
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  get lastId(): number {
    return this.#ring.lastId;
  }

  publish(event: StreamEvent): void {
    if (this.#closed) return;
    const entry = this.#ring.push(event);
    for (const client of this.#clients) this.#send(client, entry);
  }

  /** Builds and publishes a server event. */
  emit<K extends keyof ServerEventPayloads>(type: K, payload: ServerEventPayloads[K]): void {
    this.publish({ type, time: Date.now(), ...payload } as ServerEvent);
  }

  /** A new SSE body: `server.connected`, then the replay (after a `replay.gap` if needed), then live events. */
  open(request: StreamRequest): ReadableStream<Uint8Array> {
    let client: Client | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (this.#closed) return controller.close();
        const resumeFrom = request.lastEventId ?? this.#ring.lastId;
        const wrap = (event: ServerEvent): unknown => (request.envelope ? { sessionId: null, event } : event);
        const connected: ServerEvent = {
          type: 'server.connected',
          time: Date.now(),
          lastEventId: resumeFrom,
          replayBufferSize: this.#ring.capacity,
        };
        controller.enqueue(encoder.encode(`retry: ${this.options.retryMs}\n\n`));
        controller.enqueue(frame(resumeFrom, wrap(connected)));
        const c: Client = {
          controller,
          pending: [],
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
        if (request.lastEventId !== undefined) {
          const since = this.#ring.since(request.lastEventId);
          if (since.kind === 'gap') {
            const gap: ServerEvent = {
              type: 'replay.gap',
              time: Date.now(),
              requestedAfter: request.lastEventId,
              oldestAvailable: since.oldest,
              missed: since.missed,
              reason: since.missed === null ? 'unknown-id' : 'evicted',
            };
            controller.enqueue(frame(since.oldest - 1, wrap(gap)));
          }
          for (const entry of since.entries) this.#send(c, entry);
        }
        this.#clients.add(c);
        request.signal?.addEventListener('abort', c.close, { once: true });
        this.#startHeartbeat();
      },
      cancel: () => client?.close(),
    });
  }

  /** Ends every stream; later publishes are ignored. */
  close(): void {
    this.#closed = true;
    for (const client of [...this.#clients]) client.close();
    this.#stopHeartbeatIfIdle();
  }

  #send(client: Client, entry: Entry): void {
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
