/**
 * Sessions created over HTTP: each is subscribed into the hub, answers its
 * permission questions through control requests, and runs one prompt at a
 * time in the background (the POST returns at once).
 */
import type { AgentResult, HostEvent } from '../events/types.js';
import { messageOf, WasmhooksError } from '../errors.js';
import type { HookEventName } from '../hooks/types.js';
import type { PermissionMode } from '../permissions/types.js';
import { remoteCanUseTool, type ControlBroker } from './control.js';
import { ApiError } from './errors.js';
import type { EventHub } from './hub.js';
import type { RemoteHooks } from './remote-hooks.js';
import type { ServerHost, ServerSession } from './types.js';

export interface CreateSessionInput {
  title?: string;
  /** Hook events this session's remote client answers as `hook_callback` control requests. */
  hookCallbacks?: HookEventName[];
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  maxTurns?: number;
}

interface SessionRecord {
  id: string;
  title?: string;
  session: ServerSession;
  createdAt: number;
  running: boolean;
  prompts: number;
  lastResult?: AgentResult;
  unsubscribe: () => void;
}

/** A session as the API shows it. */
export interface SessionView {
  id: string;
  title?: string;
  state: string;
  running: boolean;
  createdAt: number;
  prompts: number;
  pendingControlRequests: number;
  lastResult?: {
    subtype: AgentResult['subtype'];
    text: string;
    turns: number;
    durationMs: number;
    /** Why the prompt failed (`error_during_execution`, a model error). */
    error?: { code: string; message: string };
  };
}

export class SessionRegistry {
  readonly #records = new Map<string, SessionRecord>();

  constructor(
    private readonly host: ServerHost,
    private readonly hub: EventHub,
    private readonly broker: ControlBroker,
    private readonly controlTimeoutMs: number,
    private readonly remoteHooks: RemoteHooks,
  ) {}

  async create(input: CreateSessionInput): Promise<SessionView> {
    // The id must exist before the session so its permission callback can name it.
    const provisional = crypto.randomUUID();
    let id: string = provisional;
    const session = await this.host.session({
      sessionId: provisional,
      permissionTimeoutMs: this.controlTimeoutMs + 1000,
      canUseTool: (name, toolInput, info) => remoteCanUseTool(this.broker, id)(name, toolInput, info),
      ...(input.permissionMode ? { permissionMode: input.permissionMode } : {}),
      ...(input.systemPrompt !== undefined ? { systemPrompt: input.systemPrompt } : {}),
      ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    });
    id = session.id ?? provisional;
    if (this.#records.has(id)) throw new ApiError('conflict', `session ${id} exists`);
    try {
      this.remoteHooks.enable(id, input.hookCallbacks ?? []);
    } catch (error) {
      await session.close?.();
      throw error;
    }
    const forward =
      id === session.id
        ? (event: HostEvent) => this.hub.publish(event)
        : (event: HostEvent) => this.hub.publish({ ...event, sessionId: id });
    const record: SessionRecord = {
      id,
      ...(input.title ? { title: input.title } : {}),
      session,
      createdAt: Date.now(),
      running: false,
      prompts: 0,
      unsubscribe: session.subscribe(forward, { buffer: Number.POSITIVE_INFINITY }),
    };
    this.#records.set(id, record);
    this.hub.emit('session.created', { sessionId: id });
    return this.#view(record);
  }

  has(id: string): boolean {
    return this.#records.has(id);
  }

  list(): SessionView[] {
    return [...this.#records.values()].map((r) => this.#view(r));
  }

  get(id: string): SessionView {
    return this.#view(this.#record(id));
  }

  /** Starts a prompt in the background; 409 while one runs. */
  prompt(id: string, text: string): void {
    const record = this.#record(id);
    if (record.running || record.session.state !== 'idle') {
      throw new ApiError('conflict', `session ${id} is running a prompt; wait for agent.end or POST /session/${id}/abort`);
    }
    record.running = true;
    record.prompts++;
    void (async () => {
      try {
        record.lastResult = await record.session.prompt(text);
      } catch (error) {
        const code = error instanceof WasmhooksError ? error.code : 'PROMPT_FAILED';
        this.hub.emit('prompt.failed', { sessionId: id, code, message: messageOf(error) });
      } finally {
        record.running = false;
      }
    })();
  }

  /** Returns whether a prompt was running. */
  abort(id: string): boolean {
    const record = this.#record(id);
    this.broker.cancel(id, undefined, 'aborted');
    if (!record.running) return false;
    record.session.abort();
    return true;
  }

  async delete(id: string): Promise<void> {
    const record = this.#record(id);
    this.#records.delete(id);
    this.broker.cancel(id, undefined, 'session-deleted');
    this.remoteHooks.disable(id);
    if (record.running) record.session.abort();
    record.unsubscribe();
    await record.session.close?.();
    this.hub.emit('session.deleted', { sessionId: id });
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#records.keys()].map((id) => this.delete(id)));
    this.remoteHooks.close();
  }

  #record(id: string): SessionRecord {
    const record = this.#records.get(id);
    if (!record) throw new ApiError('not_found', `no session ${id}`);
    return record;
  }

  #view(r: SessionRecord): SessionView {
    const last = r.lastResult;
    return {
      id: r.id,
      ...(r.title ? { title: r.title } : {}),
      state: r.session.state,
      running: r.running,
      createdAt: r.createdAt,
      prompts: r.prompts,
      pendingControlRequests: this.broker.pending(r.id).length,
      ...(last
        ? {
            lastResult: {
              subtype: last.subtype,
              text: last.text,
              turns: last.turns,
              durationMs: last.durationMs,
              ...(last.error ? { error: { code: last.error.code, message: last.error.message } } : {}),
            },
          }
        : {}),
    };
  }
}
