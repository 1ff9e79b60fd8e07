/**
 * The event hub: publishes into the event log (which assigns the SSE ids and
 * holds the replay window; with a shared log such as Redis, the events of
 * every replica arrive here through its subscription) and fans every logged
 * event out to the connected SSE clients. `publish` never blocks: each client has
 * its own queue, handed to the runtime only when the runtime asks for more
 * (the stream's `pull`), so the queue measures exactly what the peer has not
 * taken. A client whose queue passes `clientQueueLimit` frames or
 * `clientQueueBytes` bytes is dropped: its stream is errored and its
 * connection destroyed where the runtime lets us (it can reconnect with
 * `Last-Event-ID` and replay) instead of slowing the others down.
 */
import { HEARTBEAT, REFERENCE_HEARTBEAT, encodeEvent, frameJson, referencePayload } from './events.js';
import type { ServerEvent, ServerEventPayloads, StreamEvent } from './events.js';
import { MemoryEventLog } from '../store/memory-log.js';
import type { EventLog, Since } from '../store/types.js';
import type { Entry, StreamFormat } from './ring.js';

export interface StreamRequest {
  /** Only events of this session (plus server-wide ones). */
  session?: string;
  format: StreamFormat;
  /** From the `Last-Event-ID` header; undefined for a fresh connection. */
  lastEventId?: string;
  /** Cuts the connection under the stream (the runtime adapter's, when it has one). */
  destroy?: () => void;
}

export interface HubOptions {
  replayBufferSize: number;
  heartbeatMs: number;
  clientQueueLimit: number;
  clientQueueBytes: number;
  retryMs: number;
}

const encoder = new TextEncoder();

class Client {
  queue: Uint8Array[] = [];
  bytes = 0;
  /** The runtime asked for data while the queue was empty. */
  waiting = false;
  /** End the stream once the queue is taken (shutdown). */
  ending = false;
  /** Live entries that arrived while the replay was being read (null once live). */
  held: Entry[] | null = null;
  ended = false;
  controller!: ReadableStreamDefaultController<Uint8Array>;
  constructor(
    readonly request: StreamRequest,
    readonly onEnd: (client: Client) => void,
  ) {}

  push(bytes: Uint8Array): void {
    this.queue.push(bytes);
    this.bytes += bytes.length;
  }

  /** Hands the whole queue over as one chunk (one write for a burst of events). */
  deliver(): void {
    this.waiting = false;
    const frames = this.queue;
    this.queue = [];
    this.bytes = 0;
    this.controller.enqueue(frames.length === 1 ? (frames[0] as Uint8Array) : concat(frames));
  }

  pull(): void {
    if (this.ended) return;
    if (this.queue.length > 0) this.deliver();
    else if (this.ending) this.end();
    else this.waiting = true;
  }

  /** Graceful end: the runtime has taken everything. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    try {
      this.controller.close();
    } catch {
      // Already cancelled by the reader.
    }
    this.onEnd(this);
  }

  /** Slow or gone: error the stream, free the queue, cut the connection (unless the reader left by itself). */
  drop(reason: string, destroy = true): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.bytes = 0;
    try {
      if (destroy && this.request.destroy) {
        // Cut where the runtime lets us (the peer sees a truncated response); the stream then just ends.
        this.request.destroy();
        this.controller.close();
      } else this.controller.error(new Error(reason));
    } catch {
      // Already closed or cancelled.
    }
    this.onEnd(this);
  }
}

export class EventHub {
  readonly #log: EventLog;
  readonly #unsubscribe: () => void;
  readonly #clients = new Set<Client>();
  readonly #dirty = new Set<Client>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #flushQueued = false;
  #closed = false;
  #drained: (() => void) | undefined;

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
    const client = new Client(request, (c) => this.#forget(c));
    return new ReadableStream<Uint8Array>(
      {
        start: async (controller) => {
          client.controller = controller;
          if (this.#closed) return controller.close();
          const resumeFrom = request.lastEventId ?? this.#log.lastId();
          client.push(encoder.encode(`retry: ${this.options.retryMs}\n\n`));
          const connected = { lastEventId: resumeFrom, replayBufferSize: this.#log.capacity };
          client.push(this.#serverFrame(request.format, resumeFrom, 'server.connected', connected));
          // Live from now on, held while the replay is read, so nothing falls between the two.
          if (request.lastEventId !== undefined) client.held = [];
          this.#clients.add(client);
          this.#startHeartbeat();
          if (request.lastEventId !== undefined) await this.#replay(client, request.lastEventId);
        },
        pull: () => client.pull(),
        cancel: () => client.drop('cancelled by the reader', false),
      },
      // Nothing is buffered in the stream itself: the client's queue is the only one, and it is counted.
      { highWaterMark: 0 },
    );
  }

  async #replay(client: Client, after: string): Promise<void> {
    let since: Since;
    try {
      since = await this.#log.since(after);
    } catch {
      // The log is unreachable (Redis down): say the replay could not be done, then go live.
      since = { kind: 'gap', entries: [], oldest: null, missed: null, reason: 'unknown-id' };
    }
    if (client.ended) return;
    const format = client.request.format;
    if (since.kind === 'gap') {
      const gap = { requestedAfter: after, oldestAvailable: since.oldest, missed: since.missed, reason: since.reason };
      client.push(this.#serverFrame(format, after, 'replay.gap', gap));
    }
    let last = since.entries.at(-1)?.id;
    for (const entry of since.entries) this.#send(client, entry, false);
    const held = client.held ?? [];
    client.held = null;
    for (const entry of held) {
      if (last !== undefined && this.#log.compare(entry.id, last) <= 0) continue;
      last = entry.id;
      this.#send(client, entry);
    }
    if (client.waiting && client.queue.length > 0) this.#enqueueFlush(client);
  }

  /**
   * Ends every stream after a final `server.closing` event (this server's
   * clients only: it is not logged, other replicas go on); later publishes
   * are ignored. What was published before reaches the clients first (the
   * log is drained, within `graceMs`). Resolves once every client has taken
   * its queue, or after `graceMs`, when the rest are dropped.
   */
  async close(graceMs = 1000): Promise<void> {
    if (this.#closed) return;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#log.drain(), new Promise<void>((resolve) => (drainTimer = setTimeout(resolve, graceMs)))]);
    clearTimeout(drainTimer);
    this.#closed = true;
    this.#unsubscribe();
    const lastId = this.#log.lastId();
    for (const client of this.#clients) this.#enqueue(client, this.#serverFrame(client.request.format, lastId, 'server.closing', { reason: 'shutdown' }), false);
    this.#flush();
    for (const client of [...this.#clients]) {
      client.ending = true;
      if (client.waiting) client.end();
    }
    if (this.#clients.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      for (const client of [...this.#clients]) client.drop('server closed');
    }
    this.#stopHeartbeatIfIdle();
  }

  #forget(client: Client): void {
    this.#clients.delete(client);
    this.#dirty.delete(client);
    this.#stopHeartbeatIfIdle();
    if (this.#clients.size === 0) this.#drained?.();
  }

  #serverFrame<K extends 'server.connected' | 'replay.gap' | 'server.closing'>(format: StreamFormat, id: string, type: K, payload: ServerEventPayloads[K]): Uint8Array {
    const event = { type, time: Date.now(), ...payload } as ServerEvent;
    if (format === 'reference') return frameJson(id, JSON.stringify({ sessionID: null, payload: referencePayload(event) }));
    const { json } = encodeEvent(event);
    return frameJson(id, format === 'global' ? `{"sessionId":null,"event":${json}}` : json);
  }

  #send(client: Client, entry: Entry, live = true): void {
    if (live && client.held) {
      client.held.push(entry);
      return;
    }
    const session = client.request.session;
    if (session !== undefined && entry.sessionId !== null && entry.sessionId !== session) return;
    this.#enqueue(client, entry.frame(client.request.format), live);
  }

  #enqueue(client: Client, bytes: Uint8Array, live = true): void {
    client.push(bytes);
    // The replay of a new connection is bounded by the ring and is not counted against it.
    if (live && (client.queue.length > this.options.clientQueueLimit || client.bytes > this.options.clientQueueBytes)) {
      client.drop(`slow client: ${client.queue.length} frames (${client.bytes} bytes) not taken`);
      return;
    }
    if (!client.waiting) return;
    this.#enqueueFlush(client);
  }

  #enqueueFlush(client: Client): void {
    this.#dirty.add(client);
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      queueMicrotask(() => this.#flush());
    }
  }

  /** One chunk per waiting client per tick: fewer writes when events come in bursts. */
  #flush(): void {
    this.#flushQueued = false;
    for (const client of this.#dirty) {
      if (client.ended || !client.waiting || client.queue.length === 0) continue;
      try {
        client.deliver();
      } catch {
        // The stream was cancelled in a way that did not reach `cancel` first: drop the client, spare the others.
        client.drop('stream closed');
      }
    }
    this.#dirty.clear();
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    this.#heartbeat = setInterval(() => {
      for (const client of [...this.#clients]) {
        this.#enqueue(client, client.request.format === 'reference' ? REFERENCE_HEARTBEAT : HEARTBEAT);
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
