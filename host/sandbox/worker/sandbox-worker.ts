/**
 * The sandbox worker's entry: the same in-thread engine, driven over the
 * shared-memory channel. It blocks in `Atomics.wait` between calls (a worker
 * may block; it has nothing else to do) and reads the host's abort flag at
 * every refuel.
 */
import { Engine } from '../engine.js';
import type { PluginFailure } from '../types.js';
import { Channel, Slot, State, type RequestMeta, type ResponseMeta } from './channel.js';
import { loadAdapter } from './thread.js';

const MAX_LOG_BYTES = 32 * 1024;

async function main(): Promise<void> {
  const init = await (await loadAdapter()).receive();
  const channel = new Channel(init.buffer);
  let logs: ResponseMeta['logs'] = [];
  let logBytes = 0;
  let progress: string[] = [];
  let engine: Engine;
  try {
    const module = await WebAssembly.compile(init.bytes as Uint8Array<ArrayBuffer>);
    engine = new Engine(module, {
      limits: init.limits,
      config: init.config,
      wasi: init.wasi,
      // Host callbacks cannot cross threads synchronously: lines are kept
      // (bounded) and handed over with the response.
      onLog: (level, message) => {
        if (!init.wantsLogs || logBytes > MAX_LOG_BYTES) return;
        logBytes += message.length;
        logs.push([level, message]);
      },
      onProgress: (message) => {
        if (logBytes > MAX_LOG_BYTES) return;
        logBytes += message.length;
        progress.push(message);
      },
    });
  } catch (error) {
    return refuse({ code: 'LOAD_FAILED', message: `the module did not compile in the worker: ${String(error)}` });
  }
  const failed = await engine.prepare(init.limits);
  if (failed) return refuse(failed);
  const abortFlag = {
    get aborted() {
      return Atomics.load(channel.header, Slot.ABORT) !== 0;
    },
  };
  channel.signal(State.IDLE);
  for (;;) {
    const state = channel.state;
    if (state === State.SHUTDOWN) return;
    if (state !== State.REQUEST) {
      // Sleep until the host changes the state (IDLE, or RESPONSE not yet read).
      Atomics.wait(channel.header, Slot.STATE, state);
      continue;
    }
    const { meta, data } = channel.read<RequestMeta>();
    logs = [];
    progress = [];
    logBytes = 0;
    const outcome = await engine.run(meta.fn, data, {
      deadline: performance.now() + meta.timeoutMs,
      timeoutMs: meta.timeoutMs,
      fuel: meta.fuel,
      signal: abortFlag,
    });
    const response: ResponseMeta = {
      ok: outcome.ok,
      fuelUsed: outcome.fuelUsed,
      durationMs: outcome.durationMs,
      logs,
      progress,
    };
    if (!outcome.ok) response.failure = outcome.failure;
    channel.write(response, outcome.ok ? outcome.output : new Uint8Array(0));
    channel.signal(State.RESPONSE);
  }

  function refuse(failure: PluginFailure): void {
    const response: ResponseMeta = { ok: false, failure, fuelUsed: 0, durationMs: 0, logs: [], progress: [] };
    channel.write(response, new Uint8Array(0));
    channel.signal(State.DEAD);
  }
}

void main();
