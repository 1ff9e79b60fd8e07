/**
 * One SSE client of the event hub: the bytes the runtime has not taken yet,
 * and where they go — a web stream the runtime pulls from (every runtime),
 * or the connection itself where the adapter offers it (`Connection.direct`,
 * Node), which spares the stream machinery per chunk. Either way bytes are
 * handed over only when the runtime can take them, so the queue measures
 * exactly what the peer has not taken. Queued chunks are shared between
 * clients (the hub builds one per view per tick) and never written to.
 */
import type { DirectSink, DirectSource, RuntimeWriter } from '../runtime/serve-types.js';
import type { Entry, StreamFormat } from './ring.js';
import { concatBytes } from '../bytes.js';

export interface StreamRequest {
  /** Only events of this session (plus server-wide ones). */
  session?: string;
  /** The client (per-client.ts `clientOf`: its remote address's range), counted against `maxSseClientsPerAddress` while the stream is open. */
  address?: string;
  format: StreamFormat;
  /** From the `Last-Event-ID` header; undefined for a fresh connection. */
  lastEventId?: string;
  /** Cuts the connection under the stream (the runtime adapter's, when it has one). */
  destroy?: () => void;
  /** Error the stream without a reason when dropping the client: the runtime would print it (`Connection.printsBodyErrors`). */
  quiet?: boolean;
  /** The adapter's offer to write the body to the connection directly (`Connection.direct`). */
  direct?: (body: ReadableStream<Uint8Array>, attach: (sink: DirectSink) => DirectSource) => void;
}

/** How a client's stream ends. */
interface Sink {
  end(): void;
  /** Abnormal end: cut the connection when `cut` and the runtime lets us, else error the stream. */
  fail(reason: string, cut: boolean): void;
}

/**
 * The web stream's end and writer. The stream holds nothing (high-water mark 0), so a chunk enqueued while its
 * reader waits is taken at once (a runtime's reader, Deno's, reads again in the same call) and one enqueued while
 * it does not stays in the stream until the reader comes back: `write` answers false then, and the client counts
 * it until the next pull.
 */
function streamSink(controller: ReadableStreamDefaultController<Uint8Array>, { destroy, quiet }: StreamRequest): Sink & RuntimeWriter {
  return {
    write(bytes) {
      controller.enqueue(bytes);
      return (controller.desiredSize ?? 0) >= 0;
    },
    end() {
      try {
        controller.close();
      } catch {
        // Already cancelled by the reader.
      }
    },
    fail(reason, cut) {
      try {
        if (cut && destroy) {
          // Cut where the runtime lets us (the peer sees a truncated response); the stream then just ends.
          destroy();
          controller.close();
        } else controller.error(quiet ? undefined : new Error(reason));
      } catch {
        // Already closed or cancelled.
      }
    },
  };
}

/** The connection's end (its writes go to it directly: `Client.attach`). */
function connectionSink(sink: DirectSink): Sink {
  return {
    end: () => sink.end(),
    // Too slow, or gone already: either way the connection goes (the peer reconnects with Last-Event-ID).
    fail: () => sink.destroy(),
  };
}

const CLOSED: DirectSource = { resume: () => {}, close: () => {} };

/** The sink of a client whose connection is not attached yet (`EventHub.openDirect`): nothing is written before `attach`. */
const UNATTACHED: Sink & RuntimeWriter = {
  write() {
    throw new Error('an SSE client was written before its connection was attached');
  },
  end() {},
  fail() {},
};

export class Client {
  // The fields a tick reads for every client come first, so that they share a cache line: a tick writes to every
  // client a syscall apart, and each line on the way is a cache miss per client.
  /** Clients of one view receive the same bytes: the format, and the session filter if any. */
  readonly view: string;
  /** Live entries that arrived while the replay was being read (null once live). */
  held: Entry[] | null = null;
  /** The runtime can take bytes now (it asked while the queue was empty, or its buffer has room). */
  waiting = false;
  /** SSE bytes and frames in the queue. */
  bytes = 0;
  /** Takes the bytes: the sink, or once attached the connection's own writer, with no wrapper between them. */
  #writer: RuntimeWriter = UNATTACHED;
  frames = 0;
  /** Chunks not taken yet, in order. */
  #queue: Uint8Array[] = [];
  /** End the stream once the queue is taken (shutdown). */
  ending = false;
  /** Of `frames` and `bytes`: those of the chunk the web stream holds because its reader was not reading (see `streamSink`). */
  #unreadFrames = 0;
  #unreadBytes = 0;
  /** The bytes go to a web stream (`useStream`), not to a connection. */
  #stream = false;
  /** Settles the pull the web stream waits on (see `pulled`). */
  #pull: (() => void) | undefined;
  ended = false;
  #sink: Sink = UNATTACHED;
  /** Dropped with its connection to be cut before the connection was attached: cut it on `attach`. */
  #cut = false;

  constructor(
    readonly request: StreamRequest,
    readonly onEnd: (client: Client) => void,
  ) {
    this.view = request.session === undefined ? request.format : `${request.format} ${request.session}`;
  }

  /** The web stream the runtime reads (set as the stream starts). */
  useStream(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#sink = this.#writer = streamSink(controller, this.request);
    this.#stream = true;
  }

  /** From now on the adapter's connection takes the bytes and the web stream is never read. */
  attach(sink: DirectSink): DirectSource {
    if (this.ended) {
      if (this.#cut) sink.destroy();
      else sink.end();
      return CLOSED;
    }
    this.#sink = connectionSink(sink);
    this.#writer = sink.writer ?? sink;
    this.#stream = false;
    this.ready();
    return { resume: () => this.#resume(), close: () => this.#gone() };
  }

  get queued(): boolean {
    return this.#queue.length > 0;
  }

  push(bytes: Uint8Array, frames: number): void {
    this.#queue.push(bytes);
    this.frames += frames;
    this.bytes += bytes.length;
  }

  /** Hands the whole queue over as one chunk (one write for a burst of events). */
  deliver(): void {
    const queue = this.#queue;
    const frames = this.frames - this.#unreadFrames;
    this.#queue = [];
    this.frames = this.#unreadFrames;
    this.bytes = this.#unreadBytes;
    this.write(queue.length === 1 ? (queue[0] as Uint8Array) : concatBytes(queue), frames);
  }

  /** Hands `frames` as bytes over past the queue (the caller knows the runtime can take them and nothing is queued). */
  write(bytes: Uint8Array, frames: number): void {
    const taken = this.#writer.write(bytes);
    if (typeof taken !== 'object') {
      this.waiting = taken !== false;
      // Only a web stream refuses (answers false) bytes it keeps: they count until its reader asks again.
      if (!this.waiting && this.#stream) this.#unread(bytes.length, frames);
    } else {
      this.waiting = false;
      taken.then(
        () => this.#resume(),
        () => this.#gone(),
      );
    }
  }

  /**
   * The connection drained (a runtime's event or promise, outside any flush): a write that throws here would be an
   * uncaught exception or an unhandled rejection, which ends the process; it drops this client only, as in a flush.
   */
  #resume(): void {
    try {
      this.ready();
    } catch {
      this.drop('stream closed');
    }
  }

  #gone(): void {
    this.drop('the connection closed', false);
  }

  /**
   * The web stream pulls: its reader has taken everything and waits. The pull is answered only when the stream
   * must call again: after a chunk it kept (see `write`). While its reader takes every chunk at once, the
   * pending pull spares the stream a call and a promise per chunk (it only notes that it would pull again).
   */
  pulled(): Promise<void> | undefined {
    this.bytes -= this.#unreadBytes;
    this.frames -= this.#unreadFrames;
    this.#unreadBytes = this.#unreadFrames = 0;
    this.ready();
    if (!this.waiting || this.ended) return undefined;
    return new Promise<void>((resolve) => (this.#pull = resolve));
  }

  #unread(bytes: number, frames: number): void {
    this.#unreadBytes = bytes;
    this.#unreadFrames = frames;
    this.bytes += bytes;
    this.frames += frames;
    this.#settlePull();
  }

  #settlePull(): void {
    const settle = this.#pull;
    this.#pull = undefined;
    settle?.();
  }

  /** The runtime can take more: the stream pulls, or the connection drained. */
  ready(): void {
    if (this.ended) return;
    if (this.#queue.length > 0) this.deliver();
    else this.waiting = true;
    if (this.waiting && this.ending && this.#queue.length === 0) this.end();
  }

  /** Graceful end: the runtime has taken everything. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.#sink.end();
    this.onEnd(this);
  }

  /** The reader cancelled the web stream: free the queue; the stream is closed already (nothing to end or error). */
  cancelled(): void {
    if (this.#release()) this.onEnd(this);
  }

  /** Slow or gone: free the queue, cut the connection or error the stream (`cut` false: the reader left by itself). */
  drop(reason: string, cut = true): void {
    if (!this.#release()) return;
    this.#cut = cut;
    this.#sink.fail(reason, cut);
    this.onEnd(this);
  }

  /** Ends the client and frees its queue; false when it had ended already. */
  #release(): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.#queue = [];
    this.frames = 0;
    this.bytes = 0;
    return true;
  }
}

