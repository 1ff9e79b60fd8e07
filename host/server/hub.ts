/**
 * The event hub: publishes into the event log (which assigns the SSE ids and
 * holds the replay window; with a shared log such as Redis, the events of
 * every replica arrive here through its subscription) and fans every logged
 * event out to the connected SSE clients. `publish` never blocks: the events
 * of one tick are joined once per view (format and session filter) and each
 * client queues that shared chunk, handed to the runtime only when the
 * runtime can take it (see `Client`), so each client gets at most one write
 * per tick. A client whose queue passes `clientQueueLimit` frames or
 * `clientQueueBytes` bytes is dropped: its stream is errored and its
 * connection destroyed where the runtime lets us (it can reconnect with
 * `Last-Event-ID` and replay) instead of slowing the others down.
 */
import { HEARTBEAT, REFERENCE_HEARTBEAT } from './events.js';
import type { ServerEvent, ServerEventPayloads, StreamEvent } from './events.js';
import { Client, type StreamRequest } from './hub-client.js';
import { framedFor, replayFrames, serverFrame, Tick, wants, type Batch } from './hub-frames.js';
import { MemoryEventLog } from '../store/memory-log.js';
import type { DirectSink, DirectSource } from '../runtime/serve-types.js';
import type { EventLog, Since } from '../store/types.js';
import type { Entry } from './ring.js';
import { timerDelay } from '../timer.js';
import { PerClient } from './per-client.js';

export type { StreamRequest } from './hub-client.js';

export interface HubOptions {
  replayBufferSize: number;
  heartbeatMs: number;
  clientQueueLimit: number;
  clientQueueBytes: number;
  retryMs: number;
  /** Streams one remote address may hold open (per-client.ts); default: no cap. */
  maxSseClientsPerAddress?: number;
}

const encoder = new TextEncoder();

export class EventHub {
  readonly #log: EventLog;
  readonly #unsubscribe: () => void;
  readonly #clients = new Set<Client>();
  /** Live entries of this tick, not yet handed to the clients. */
  #tick: Entry[] = [];
  /** Clients with bytes queued outside a tick (replay, heartbeat, shutdown), delivered at the next flush. */
  readonly #pending = new Set<Client>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #flushQueued = false;
  #closed = false;
  #drained: (() => void) | undefined;
  /** Open streams by remote address: sse.ts refuses one past the cap. */
  readonly perClient: PerClient<Client>;

  constructor(
    private readonly options: HubOptions,
    log: EventLog = new MemoryEventLog(options.replayBufferSize),
  ) {
    this.#log = log;
    this.perClient = new PerClient('maxSseClientsPerAddress', options.maxSseClientsPerAddress ?? Infinity, 'event streams');
    this.#unsubscribe = log.subscribe((entry) => {
      if (this.#clients.size === 0) return;
      this.#tick.push(entry);
      this.#scheduleFlush();
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

  /**
   * A new SSE body: `server.connected`, then the replay (after a `replay.gap`
   * if needed), then live events. Where the adapter offers it
   * (`request.direct`), the body is written to the connection instead.
   */
  open(request: StreamRequest): ReadableStream<Uint8Array> {
    const client = new Client(request, (c) => this.#forget(c));
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          client.useStream(controller);
          return this.#start(client);
        },
        pull: () => client.pulled(),
        // Erroring a cancelled stream does nothing but build an Error (a stack per disconnect): it is only let go.
        cancel: () => client.cancelled(),
      },
      // The stream holds at most the one chunk its reader was not waiting for, and the client counts it.
      { highWaterMark: 0 },
    );
    request.direct?.(body, (sink) => client.attach(sink));
    return body;
  }

  /**
   * A new SSE client written straight to the connection, with no web stream
   * (`Connection.respond`): the same bytes as `open`'s, queued until the
   * adapter calls the returned `attach` (once the connection can take them).
   */
  openDirect(request: StreamRequest): (sink: DirectSink) => DirectSource {
    const client = new Client(request, (c) => this.#forget(c));
    this.#start(client).catch(() => client.drop('the stream could not start'));
    return (sink) => client.attach(sink);
  }

  async #start(client: Client): Promise<void> {
    if (this.#closed) return client.end();
    const { request } = client;
    // Entries of the tick so far are older than this client's starting point: they go to the others first.
    this.#flush();
    const resumeFrom = request.lastEventId ?? this.#log.lastId();
    client.push(encoder.encode(`retry: ${this.options.retryMs}\n\n`), 0);
    const connected = { lastEventId: resumeFrom, replayBufferSize: this.#log.capacity };
    client.push(serverFrame(request.format, resumeFrom, 'server.connected', connected), 1);
    // Live from now on, held while the replay is read, so nothing falls between the two.
    if (request.lastEventId !== undefined) client.held = [];
    this.#clients.add(client);
    this.perClient.add(request.address, client);
    this.#startHeartbeat();
    if (request.lastEventId !== undefined) await this.#replay(client, request.lastEventId);
  }

  async #replay(client: Client, after: string): Promise<void> {
    let since: Since;
    try {
      // At most what the client can take is read (an unknown or old id no longer reads the whole window).
      since = await this.#log.since(after, Math.max(0, this.options.clientQueueBytes - client.bytes));
    } catch {
      // The log is unreachable (Redis down): say the replay could not be done, then go live.
      since = { kind: 'gap', entries: [], oldest: null, missed: null, reason: 'unknown-id' };
    }
    if (client.ended) return;
    const format = client.request.format;
    let last = since.entries.at(-1)?.id;
    for (const frame of replayFrames(client, after, since, this.options.clientQueueBytes - client.bytes)) client.push(frame, 1);
    // Whatever this tick holds goes into `held` too, so it is checked against the replay below.
    this.#flush();
    const held = client.held ?? [];
    client.held = null;
    for (const entry of held) {
      if (last !== undefined && this.#log.compare(entry.id, last) <= 0) continue;
      last = entry.id;
      if (wants(client, entry)) this.#enqueue(client, framedFor(client, entry.frame(format)), 1);
    }
    this.#later(client);
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
    this.#flush();
    const lastId = this.#log.lastId();
    for (const client of this.#clients) {
      client.push(serverFrame(client.request.format, lastId, 'server.closing', { reason: 'shutdown' }), 1);
      this.#pending.add(client);
    }
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
    this.perClient.remove(client);
    this.#pending.delete(client);
    this.#stopHeartbeatIfIdle();
    if (this.#clients.size === 0) this.#drained?.();
  }

  /** Queues live bytes; a client past its limits is dropped. */
  #enqueue(client: Client, bytes: Uint8Array, frames: number): void {
    client.push(bytes, frames);
    if (client.frames > this.options.clientQueueLimit || client.bytes > this.options.clientQueueBytes) {
      client.drop(`slow client: ${client.frames} frames (${client.bytes} bytes) not taken`);
    }
  }

  #later(client: Client): void {
    this.#pending.add(client);
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => this.#flush());
  }

  /** The tick's entries, joined once per view, then one write to each client that can take it. */
  #flush(): void {
    this.#flushQueued = false;
    const entries = this.#tick;
    if (entries.length > 0) {
      this.#tick = [];
      const tick = new Tick(entries);
      // Most clients share a view: remember the last one before asking the map.
      const batches = new Map<string, Batch | null>();
      let view: string | undefined;
      let batch: Batch | null = null;
      for (const client of this.#clients) {
        if (client.held) {
          for (const entry of entries) client.held.push(entry);
          // A log read that never ends (Redis stalled) must not hold live events without bound: past the
          // client's own queue limit it goes, like a slow reader, and reconnects with its Last-Event-ID.
          if (client.held.length > this.options.clientQueueLimit) {
            client.drop(`slow replay: ${client.held.length} live events arrived while the replay was read`);
          }
          continue;
        }
        if (client.view !== view) {
          view = client.view;
          let known = batches.get(view);
          if (known === undefined) batches.set(view, (known = tick.batch(client)));
          batch = known;
        }
        if (batch === null) continue;
        if (client.waiting && !client.queued) this.#hand(client, batch);
        else {
          this.#enqueue(client, batch.bytes, batch.frames);
          if (client.waiting && !client.ended) this.#hand(client);
        }
      }
    }
    if (this.#pending.size === 0) return;
    for (const client of this.#pending) if (client.waiting && client.queued) this.#hand(client);
    this.#pending.clear();
  }

  /** Hands `batch`, or with none the client's queue, to the runtime; a stream closed under us drops the client. */
  #hand(client: Client, batch?: Batch): void {
    try {
      if (batch === undefined) client.deliver();
      else client.write(batch.bytes, batch.frames);
    } catch {
      // The stream was cancelled in a way that did not reach `cancel` first: drop the client, spare the others.
      client.drop('stream closed');
    }
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    this.#heartbeat = setInterval(() => {
      for (const client of [...this.#clients]) {
        this.#enqueue(client, client.request.format === 'reference' ? REFERENCE_HEARTBEAT : HEARTBEAT, 1);
        if (!client.ended) this.#later(client);
      }
    }, timerDelay(this.options.heartbeatMs)); // past 2³¹ − 1 ms setInterval wraps to 1 ms: a heartbeat to every client each ms
  }

  #stopHeartbeatIfIdle(): void {
    if (this.#heartbeat !== undefined && this.#clients.size === 0) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
    }
  }
}
