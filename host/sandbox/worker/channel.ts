/**
 * The shared-memory channel between the host and a sandbox worker. One
 * SharedArrayBuffer: a small Int32 header (state, abort flag, lengths), then
 * a payload region. A message is JSON meta followed by raw bytes (the input
 * of a request, the output of a response). Requests and responses never
 * overlap in time, so one payload region serves both.
 *
 * A request always fits (the payload is sized for `maxInputBytes` and the
 * request meta). A response of any size is sent in chunks: the worker fills
 * the payload, sets CHUNK and sleeps until the host has copied it out (and
 * set CHUNK_TAKEN); the last part comes with RESPONSE. Nothing is dropped and
 * nothing overflows: the caps on output, logs and progress bound the total.
 */
import type { PluginFailure } from '../../failure.js';
import type { Said } from '../plugin-messages.js';
import type { CallOutcome, Limits } from '../types.js';
import { concatBytes } from '../../bytes.js';

export const State = {
  STARTING: 0,
  IDLE: 1,
  REQUEST: 2,
  RESPONSE: 3,
  /** The worker failed to start or died; set by either side. */
  DEAD: 4,
  SHUTDOWN: 5,
  /** Worker → host: a part of the response is in the payload. */
  CHUNK: 6,
  /** Host → worker: that part was copied; send the next. */
  CHUNK_TAKEN: 7,
} as const;

/**
 * `KILLED`: set by the host when it gives up on the worker (terminates it). The worker then leaves its loop
 * as soon as its plugin stops: Deno's `terminate()` does not end a worker whose JS never returns to its
 * event loop, and the worker's loop never does (one thread per kill lived on for the process's life).
 */
export const Slot = { STATE: 0, ABORT: 1, META_LEN: 2, DATA_LEN: 3, PART_LEN: 4, KILLED: 5 } as const;

/**
 * Bun sometimes loses a notify (measured: about 1 call in 150 of a worker
 * sandbox hung until its deadline). While a call is under way, every wait on
 * the state (the host's `waitAsync`, the worker's wait for a part to be
 * taken) wakes at least this often and looks again, and the host, each time
 * it wakes to no change, notifies again: a worker that missed its wake-up is
 * woken by the next one. A lost wake-up costs one slice, not the call. An
 * idle worker waits without a timeout (no CPU while nothing is asked of it):
 * the host is waiting, and re-notifying, whenever it expects the worker to act.
 */
export const WAKE_MS = 20;
const HEADER_BYTES = 32;
/** Room for a request's JSON meta (function name, limits) beside its input. */
export const META_BYTES = 64 * 1024;

export interface RequestMeta {
  fn: string;
  timeoutMs: number;
  fuel: number;
  /**
   * The call's time left when the host posted it (ms), and the wall clock then (`Date.now()`): the worker
   * counts its deadline from when the host started the call, not from when it woke up to it (late on a busy
   * machine). Absent: no deadline. Not an instant on `performance.timeOrigin + performance.now()`: each
   * thread's `timeOrigin` is the wall clock read when that thread started, so a clock step between the host's
   * start and the worker's (NTP's first sync on a fresh machine) moved every deadline by the step (CI saw a
   * worker call time out at once, every call after the step).
   */
  left?: { ms: number; postedAt: number };
}

/**
 * The worker's deadline on its own `performance.now()`: the time left at the post, less the time the request
 * waited (read on the wall clock, the one clock both threads read alike, over the wait only). A step of the
 * wall clock inside that wait can only move the deadline within [now, now + left.ms].
 */
export function workerDeadline(meta: RequestMeta, now: number, wallNow: number): number {
  if (meta.left === undefined) return now + meta.timeoutMs;
  const { ms, postedAt } = meta.left;
  return now + ms - Math.min(Math.max(wallNow - postedAt, 0), ms);
}

export interface ResponseMeta {
  ok: boolean;
  failure?: PluginFailure;
  /** The export's return code (`CallOutcome.returnCode`), when the call returned and it is known. */
  returnCode?: number;
  fuelUsed: number;
  durationMs: number;
  /** The call's log lines and progress messages, in the order the plugin said them (plugin-messages.ts). */
  said: Said[];
}

/** What the host sends the worker once, at start. */
export interface WorkerInit {
  wasmhooks: 'sandbox-worker';
  bytes: Uint8Array;
  buffer: SharedArrayBuffer;
  limits: Limits;
  config: Record<string, string>;
  /** The resolved WASI grant (plain data, granted trees included). */
  wasi: import('../wasi/options.js').WasiConfig | null;
  wantsLogs: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Channel {
  readonly header: Int32Array;
  readonly #payload: Uint8Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.#payload = new Uint8Array(buffer, HEADER_BYTES);
  }

  static create(payloadBytes: number): Channel {
    return new Channel(new SharedArrayBuffer(HEADER_BYTES + payloadBytes));
  }

  get capacity(): number {
    return this.#payload.byteLength;
  }

  get state(): number {
    return Atomics.load(this.header, Slot.STATE);
  }

  /** Set the state and wake whoever waits on it. */
  signal(state: number): void {
    Atomics.store(this.header, Slot.STATE, state);
    Atomics.notify(this.header, Slot.STATE);
  }

  /** Encode a message: JSON meta, then the bytes. */
  static encode(meta: object, data: Uint8Array): { message: Uint8Array; metaLen: number } {
    const json = encoder.encode(JSON.stringify(meta));
    const message = new Uint8Array(json.byteLength + data.byteLength);
    message.set(json, 0);
    message.set(data, json.byteLength);
    return { message, metaLen: json.byteLength };
  }

  /** Write a whole message that fits (a request). Returns false when it does not. */
  write(meta: object, data: Uint8Array): boolean {
    const { message, metaLen } = Channel.encode(meta, data);
    if (message.byteLength > this.capacity) return false;
    this.#payload.set(message, 0);
    this.#setLengths(metaLen, message.byteLength - metaLen, message.byteLength);
    return true;
  }

  /**
   * Worker side: send `meta` and `data` as a response, in as many parts as it
   * takes, waiting for the host to take each part. Returns false if the host
   * stopped taking parts (it gave up on the call).
   */
  respond(meta: object, data: Uint8Array, final: number = State.RESPONSE, partWaitMs = 10_000): boolean {
    const { message, metaLen } = Channel.encode(meta, data);
    let offset = 0;
    for (;;) {
      const part = Math.min(this.capacity, message.byteLength - offset);
      this.#payload.set(message.subarray(offset, offset + part), 0);
      this.#setLengths(metaLen, message.byteLength - metaLen, part);
      offset += part;
      if (offset >= message.byteLength) {
        this.signal(final);
        return true;
      }
      this.signal(State.CHUNK);
      const until = performance.now() + partWaitMs;
      while (this.state === State.CHUNK) {
        if (performance.now() >= until) return false;
        Atomics.wait(this.header, Slot.STATE, State.CHUNK, WAKE_MS);
      }
      if (this.state !== State.CHUNK_TAKEN) return false;
    }
  }

  /** The part now in the payload (a copy: shared memory may change under a reader). */
  part(): Uint8Array {
    return this.#payload.slice(0, Atomics.load(this.header, Slot.PART_LEN));
  }

  /** Decode a whole message from its parts. */
  decode<T>(parts: Uint8Array[]): { meta: T; data: Uint8Array } {
    const metaLen = Atomics.load(this.header, Slot.META_LEN);
    const dataLen = Atomics.load(this.header, Slot.DATA_LEN);
    const whole = parts.length === 1 ? parts[0]! : concatBytes(parts, metaLen + dataLen);
    const meta = JSON.parse(decoder.decode(whole.subarray(0, metaLen))) as T;
    return { meta, data: whole.subarray(metaLen, metaLen + dataLen) };
  }

  /** A message written in one part (a request, or a refusal at start). */
  read<T>(): { meta: T; data: Uint8Array } {
    return this.decode<T>([this.part()]);
  }

  #setLengths(metaLen: number, dataLen: number, partLen: number): void {
    Atomics.store(this.header, Slot.META_LEN, metaLen);
    Atomics.store(this.header, Slot.DATA_LEN, dataLen);
    Atomics.store(this.header, Slot.PART_LEN, partLen);
  }
}

export function outcomeOf(meta: ResponseMeta, data: Uint8Array): CallOutcome {
  const { fuelUsed, durationMs } = meta;
  if (meta.ok) return { ok: true, output: data, returnCode: meta.returnCode, fuelUsed, durationMs };
  const failure = meta.failure ?? { code: 'TRAP', message: 'the worker reported a failure without a reason' };
  return { ok: false, failure, fuelUsed, durationMs };
}
