/**
 * Calls between replicas over the store's messages: a replica that receives
 * an answer (or an abort) for a prompt another replica runs forwards it to
 * that owner and waits for its verdict. Bodies are validated on arrival: the
 * channel is shared by every process that can reach the store.
 */
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';
import type { SessionStore } from '../store/types.js';
import { timerDelay } from '../timer.js';

const callSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('abort'), sessionId: z.string() }),
  z.object({ op: z.literal('cancel'), sessionId: z.string(), requestID: z.string().optional(), subtype: z.enum(['can_use_tool', 'hook_callback', 'elicitation', 'mcp_message']).optional() }),
  z.object({
    op: z.literal('respond'),
    sessionId: z.string(),
    requestID: z.string(),
    subtype: z.enum(['can_use_tool', 'hook_callback', 'elicitation', 'mcp_message']),
    response: z.unknown(),
  }),
]);

export type ReplicaCall = z.output<typeof callSchema>;

/** How long a forwarded call waits for the owner. */
const CALL_TIMEOUT_MS = 3000;

export class ReplicaCalls {
  readonly #waiting = new Map<string, (body: unknown) => void>();
  #stop: (() => void) | undefined;

  constructor(
    private readonly store: SessionStore,
    readonly replica: string,
    private readonly handle: (call: ReplicaCall) => Promise<unknown>,
  ) {}

  async start(): Promise<void> {
    this.#stop = await this.store.listen(this.replica, (message) => {
      if (message.kind === 'reply') {
        this.#waiting.get(message.callId)?.(message.body);
        return;
      }
      const parsed = callSchema.safeParse(message.body);
      const answer = parsed.success
        ? this.handle(parsed.data).catch((error) => ({ error: messageOf(error) }))
        : Promise.resolve({ error: 'malformed call' });
      void answer.then((body) => this.store.send(message.from, { kind: 'reply', callId: message.callId, body }).catch(() => {}));
    });
  }

  /** Sends `call` to `to` and resolves with its answer; `STORE_UNAVAILABLE` when none comes in time. */
  async call(to: string, call: ReplicaCall, timeoutMs = CALL_TIMEOUT_MS): Promise<unknown> {
    const callId = crypto.randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await new Promise<unknown>((resolve, reject) => {
        this.#waiting.set(callId, resolve);
        timer = setTimeout(
          () => reject(new WasmhooksError('STORE_UNAVAILABLE', `replica ${to}, which runs this session's prompt, did not answer within ${timeoutMs} ms; retry`)),
          timerDelay(timeoutMs),
        );
        this.store.send(to, { kind: 'call', callId, from: this.replica, body: call }).catch(reject);
      });
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(callId);
    }
  }

  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
  }
}
