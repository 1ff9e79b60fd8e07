// A small stand-in for the host while tests need exact control of timing:
// each prompt streams a few events, asks `canUseTool` for one tool call, and ends.
import { EventBus } from '../../host/events/bus.js';
import type { AgentResult, AgentState, EmittedEvent, HostEvent } from '../../host/events/types.js';
import { DEFAULT_LIMITS } from '../../host/sandbox/types.js';
import type { ServerHost, ServerSession, ServerSessionOptions } from '../../host/server/types.js';

export class FakeSession implements ServerSession {
  readonly id = `fake-${crypto.randomUUID().slice(0, 8)}`;
  state: AgentState = 'idle';
  readonly bus = new EventBus();
  #seq = 0;
  #abort = new AbortController();

  constructor(readonly options: ServerSessionOptions) {}

  emit(event: EmittedEvent): void {
    this.bus.publish({ ...event, seq: ++this.#seq, sessionId: this.id, time: Date.now() } as HostEvent);
  }

  subscribe(fn: (event: HostEvent) => void, options?: { buffer?: number }): () => void {
    return this.bus.subscribe(fn, options);
  }

  abort(): void {
    this.#abort.abort();
  }

  async prompt(text: string): Promise<AgentResult> {
    this.#abort = new AbortController();
    const signal = this.#abort.signal;
    this.emit({ type: 'agent.start', prompt: text, model: 'fake', turn: 1 });
    this.emit({ type: 'text.delta', text: `echo: ${text}` });
    let subtype: AgentResult['subtype'] = 'success';
    if (text.includes('tool')) {
      const input = { path: '/tmp/x' };
      this.emit({ type: 'tool.call', toolUseId: 't1', name: 'Write', input });
      const answer = await this.options.canUseTool('Write', input, { toolUseId: 't1', toolName: 'Write', input, signal, reason: 'mode' });
      if (answer.behavior === 'allow' || answer.behavior === 'allow_always') {
        this.emit({ type: 'tool.output', toolUseId: 't1', name: 'Write', content: 'written', isError: false, durationMs: 1 });
      } else {
        const reason = answer.behavior === 'deny' ? answer.message : 'cancelled';
        this.emit({ type: 'tool.denied', toolUseId: 't1', name: 'Write', reason, source: 'callback' });
      }
    }
    if (text.includes('wait')) {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      subtype = 'aborted';
    }
    const result: AgentResult = { subtype, text: `echo: ${text}`, turns: 1, usage: { inputTokens: 0, outputTokens: 0 }, durationMs: 1 };
    this.emit({ type: 'agent.end', result });
    return result;
  }
}

export class FakeHost implements ServerHost {
  readonly sessions: FakeSession[] = [];
  readonly plugins = [
    {
      name: 'guard',
      info: { version: '1.0.0', hooks: [{ event: 'PreToolUse', matcher: 'Bash' }], tools: [] },
      limits: DEFAULT_LIMITS,
      sandbox: { health: 'healthy' },
    },
  ];

  session(options: ServerSessionOptions): FakeSession {
    const s = new FakeSession(options);
    this.sessions.push(s);
    return s;
  }
}
