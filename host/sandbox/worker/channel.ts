/**
 * The shared-memory channel between the host and a sandbox worker. One
 * SharedArrayBuffer: a small Int32 header (state, abort flag, lengths), then
 * a payload of JSON meta followed by raw bytes (the input of a request, the
 * output of a response). Requests and responses never overlap in time, so one
 * payload region serves both.
 */
import type { CallOutcome, PluginFailure } from '../types.js';

export const State = {
  STARTING: 0,
  IDLE: 1,
  REQUEST: 2,
  RESPONSE: 3,
  /** The worker failed to start or died; set by either side. */
  DEAD: 4,
  SHUTDOWN: 5,
} as const;

export const Slot = { STATE: 0, ABORT: 1, META_LEN: 2, DATA_LEN: 3 } as const;
const HEADER_BYTES = 16;
/** Room for the JSON meta: function name, limits, failure text, log lines. */
export const META_BYTES = 64 * 1024;

export interface RequestMeta {
  fn: string;
  timeoutMs: number;
  fuel: number;
}

export interface ResponseMeta {
  ok: boolean;
  failure?: PluginFailure;
  fuelUsed: number;
  durationMs: number;
  logs: [level: string, message: string][];
  progress: string[];
}

/** What the host sends the worker once, at start. */
export interface WorkerInit {
  wasmhooks: 'sandbox-worker';
  bytes: Uint8Array;
  buffer: SharedArrayBuffer;
  limits: import('../types.js').Limits;
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

  static create(maxDataBytes: number): Channel {
    return new Channel(new SharedArrayBuffer(HEADER_BYTES + META_BYTES + maxDataBytes));
  }

  get state(): number {
    return Atomics.load(this.header, Slot.STATE);
  }

  /** Set the state and wake whoever waits on it. */
  signal(state: number): void {
    Atomics.store(this.header, Slot.STATE, state);
    Atomics.notify(this.header, Slot.STATE);
  }

  write(meta: object, data: Uint8Array): void {
    let json = encoder.encode(JSON.stringify(meta));
    if (json.byteLength > META_BYTES) json = encoder.encode(JSON.stringify({ ...meta, logs: [], progress: [] }));
    this.#payload.set(json, 0);
    this.#payload.set(data, json.byteLength);
    Atomics.store(this.header, Slot.META_LEN, json.byteLength);
    Atomics.store(this.header, Slot.DATA_LEN, data.byteLength);
  }

  read<T>(): { meta: T; data: Uint8Array } {
    const metaLen = Atomics.load(this.header, Slot.META_LEN);
    const dataLen = Atomics.load(this.header, Slot.DATA_LEN);
    // Copies: decoders and callers must not see shared memory change under them.
    const meta = JSON.parse(decoder.decode(this.#payload.slice(0, metaLen))) as T;
    return { meta, data: this.#payload.slice(metaLen, metaLen + dataLen) };
  }
}

export function outcomeOf(meta: ResponseMeta, data: Uint8Array): CallOutcome {
  const { fuelUsed, durationMs } = meta;
  if (meta.ok) return { ok: true, output: data, fuelUsed, durationMs };
  const failure = meta.failure ?? { code: 'TRAP', message: 'the worker reported a failure without a reason' };
  return { ok: false, failure, fuelUsed, durationMs };
}
