/**
 * The sandbox worker's entry: the same in-thread engine, driven over the
 * shared-memory channel. It blocks in `Atomics.wait` between calls (a worker
 * may block; it has nothing else to do) and reads the host's abort flag at
 * every refuel. Log lines and progress are collected during the call (the
 * engine bounds them: `maxLogBytes`, `maxProgressBytes`) and sent with the
 * response, in as many parts as it takes.
 */
import { Engine } from '../engine.js';
import { clip } from '../failures.js';
import { loadWasi } from '../guest-imports.js';
import { PROGRESS, type Said } from '../plugin-messages.js';
import type { PluginFailure } from '../../failure.js';
import { Channel, Slot, State, workerDeadline, type RequestMeta, type ResponseMeta, type WorkerInit } from './channel.js';
import { loadAdapter } from './thread.js';

async function main(channelOf: (channel: Channel) => void): Promise<void> {
  const init = await (await loadAdapter()).receive<WorkerInit>();
  const channel = new Channel(init.buffer);
  channelOf(channel);
  let said: Said[] = [];
  let engine: Engine;
  try {
    const module = await WebAssembly.compile(init.bytes as Uint8Array<ArrayBuffer>);
    if (init.wasi) await loadWasi();
    engine = new Engine(module, {
      limits: init.limits,
      config: init.config,
      wasi: init.wasi,
      // Host callbacks cannot cross threads synchronously: they go with the response, in the order said.
      onLog: (level, message) => {
        if (init.wantsLogs) said.push([level, message]);
      },
      onProgress: (message) => {
        said.push([PROGRESS, message]);
      },
    });
  } catch (error) {
    return refuse(channel, { code: 'LOAD_FAILED', message: clip(`the module did not compile in the worker: ${String(error)}`) });
  }
  const failed = await engine.prepare(init.limits);
  if (failed) return refuse(channel, failed);
  const abortFlag = {
    get aborted() {
      return Atomics.load(channel.header, Slot.ABORT) !== 0;
    },
  };
  channel.signal(State.IDLE);
  for (;;) {
    const state = channel.state;
    // Killed: the host will never read this channel again (channel.ts, Slot.KILLED).
    if (state === State.SHUTDOWN || Atomics.load(channel.header, Slot.KILLED) !== 0) return;
    if (state !== State.REQUEST) {
      // Sleep until the host changes the state (IDLE, or RESPONSE not yet read). No timeout: a request whose
      // notify was lost is notified again by the host while it waits for the answer (channel.ts, WAKE_MS).
      Atomics.wait(channel.header, Slot.STATE, state);
      continue;
    }
    const { meta, data } = channel.read<RequestMeta>();
    said = [];
    const outcome = await engine.run(meta.fn, data, {
      // The host's deadline, not one restarted when this thread woke up (which came late on a busy machine).
      deadline: workerDeadline(meta, performance.now(), Date.now()),
      timeoutMs: meta.timeoutMs,
      fuel: meta.fuel,
      signal: abortFlag,
    });
    const response: ResponseMeta = {
      ok: outcome.ok,
      fuelUsed: outcome.fuelUsed,
      durationMs: outcome.durationMs,
      said,
    };
    if (!outcome.ok) response.failure = outcome.failure;
    else if (outcome.returnCode !== undefined) response.returnCode = outcome.returnCode;
    channel.respond(response, outcome.ok ? outcome.output : new Uint8Array(0));
  }
}

function refuse(channel: Channel, failure: PluginFailure): void {
  const response: ResponseMeta = { ok: false, failure, fuelUsed: 0, durationMs: 0, said: [] };
  channel.respond(response, new Uint8Array(0), State.DEAD);
}

let live: Channel | null = null;
// Whatever goes wrong in here, the host learns it as a death with a reason,
// never as a silent hang that it would have to call a timeout.
main((channel) => (live = channel)).catch((error: unknown) => {
  if (!live) throw error;
  refuse(live, { code: 'TRAP', message: clip(`the sandbox worker failed: ${error instanceof Error ? error.message : String(error)}`) });
});
