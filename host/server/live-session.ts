/**
 * A session object built on this replica from its stored record: the
 * host's session with remote permission answers and remote hook callbacks,
 * its events forwarded to the hub, and its conversation persisted to the
 * store as it grows. Built when needed (a new session, a prompt after a
 * restart or on another replica) and retired when no longer held here.
 */
import type { HostEvent } from '../events/types.js';
import { messageOf, WasmhooksError } from '../errors.js';
import type { HookEventName } from '../hooks/types.js';
import type { Message } from '../models/types.js';
import { persistTranscript, type Transcript } from '../store/transcript.js';
import type { ResumeAt, SessionRecord, SessionStore } from '../store/types.js';
import type { LeaseGate } from '../sessions/lease-gate.js';
import { remoteCanUseTool, type ControlBroker } from './control.js';
import type { EventHub } from './hub.js';
import type { RemoteHooks } from './remote-hooks.js';
import { sessionOptionsSchema } from './session-view.js';
import type { ServerHost, ServerSession } from './types.js';

export interface LiveDeps {
  host: ServerHost;
  hub: EventHub;
  broker: ControlBroker;
  controlTimeoutMs: number;
  remoteHooks: RemoteHooks;
  store: SessionStore;
  /** This replica's name: the conversation is written only while it holds the session's prompt lease. */
  replica: string;
}

/** A session object built on this replica. */
export interface Live {
  /** The session's id (the host's, when it picked one). */
  id: string;
  session: ServerSession;
  transcript: Transcript | undefined;
  running: boolean;
  /** The running prompt's fencing token (`SessionStore.acquire`): its writes carry it. */
  fence: number | undefined;
  /** The running prompt's lease gate (a shared store): its events go through it. */
  gate: LeaseGate | undefined;
  /** Publishes one of the session's events (under its id) to the hub. */
  publish: (event: HostEvent) => void;
  unsubscribe: () => void;
}

export async function buildLive(d: LiveDeps, id: string, options: SessionRecord['options'], history: readonly Message[], resumeAt?: ResumeAt, startAs?: 'clear'): Promise<Live> {
  const checked = sessionOptionsSchema.safeParse(options);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new WasmhooksError(
      'STORE_UNAVAILABLE',
      `session ${id}'s stored options are not ones POST /session takes (${issue?.path.join('.') || 'options'}: ${issue?.message ?? 'invalid'}): ` +
        'the record was not written by wasmhooks (a data directory that came with a cloned repository?); move it aside to continue',
    );
  }
  const { host, hub, broker, store, controlTimeoutMs, remoteHooks } = d;
  const path = store.transcriptPath(id);
  const session = await host.session({
    sessionId: id,
    permissionTimeoutMs: controlTimeoutMs + 1000,
    canUseTool: (name, toolInput, info) => remoteCanUseTool(broker, realId)(name, toolInput, info),
    ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
    ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(history.length > 0 ? { history } : {}),
    ...(path !== undefined ? { transcriptPath: path } : {}),
    ...(resumeAt ? { resumeAt } : {}),
    ...(startAs ? { startAs } : {}),
  });
  const realId = session.id ?? id;
  try {
    remoteHooks.enable(realId, (options.hookCallbacks ?? []) as HookEventName[]);
  } catch (error) {
    await session.close?.();
    throw error;
  }
  const publish = realId === session.id ? (e: HostEvent) => hub.publish(e) : (e: HostEvent) => hub.publish({ ...e, sessionId: realId });
  // A running prompt on a shared store publishes through its lease gate (host/sessions/lease-gate.ts).
  const forward = (e: HostEvent) => (live.gate ? live.gate.publish(e) : publish(e));
  const transcript = session.messages
    ? persistTranscript(session as Required<Pick<ServerSession, 'messages'>> & ServerSession, store, realId, history.length, (error) =>
        hub.emit('prompt.failed', { sessionId: realId, code: 'STORE_UNAVAILABLE', message: `the conversation could not be stored: ${messageOf(error)}` }),
        // A prompt's writes carry its lease's fencing token: once another replica took the session over (acquired
        // it, or reported the prompt interrupted) the store refuses them. Between prompts, a shared store is not written
        // (the next prompt may run elsewhere); one process (memory, a data directory) writes then too, unfenced.
        {
          from: resumeAt,
          fence: () => live.fence ?? (store.shared ? null : undefined),
          // Taken over: the prompt stops now, not at the next renewal, and publishes nothing more.
          refused: () => {
            live.gate?.lose();
            session.abort();
          },
        },
      )
    : undefined;
  const live: Live = { id: realId, session, transcript, running: false, fence: undefined, gate: undefined, publish, unsubscribe: session.subscribe(forward, { buffer: Number.POSITIVE_INFINITY }) };
  return live;
}

/** Detaches a session object; `close` also ends it (SessionEnd hooks, `reason: 'clear'` for a clear) after its last writes. */
export async function retire(live: Live, remoteHooks: RemoteHooks, close: boolean | 'clear'): Promise<void> {
  remoteHooks.disable(live.id);
  live.unsubscribe();
  if (close) await live.session.close?.(close === 'clear' ? { reason: 'clear' } : undefined);
  await live.transcript?.flush().catch(() => {});
  live.transcript?.stop();
}
