/**
 * One model call: streams the model, re-emits its deltas as host events and
 * assembles the assistant message. Never throws: a provider failure, a thrown
 * stream or a stream without an end is an `error`; an abort is `aborted`.
 */
import { messageOf } from '../errors.js';
import type { Emit } from '../events/types.js';
import type { AssistantPart, Message, Model, ModelEvent, ModelFailure, ModelRequest, StopReason, Usage } from '../models/types.js';
import { timerDelay } from '../timer.js';

export interface ToolCallRequest {
  id: string;
  name: string;
  input: unknown;
}

/**
 * `toolCalls` of an error or an abort: the calls already streamed (`tool.call` events sent) of a
 * message that never ended; none of them runs, and the loop settles each with a `tool.denied`.
 */
export type ModelTurn =
  | { kind: 'done'; content: AssistantPart[]; toolCalls: ToolCallRequest[]; stopReason: StopReason; usage: Usage }
  | { kind: 'error'; error: ModelFailure; toolCalls: ToolCallRequest[]; usage: Usage }
  | { kind: 'aborted'; toolCalls: ToolCallRequest[]; usage: Usage };

const ZERO: Usage = { inputTokens: 0, outputTokens: 0 };

/** Appends a delta to the last part when it is of the same kind, else starts a part. */
function appendText(parts: AssistantPart[], type: 'text' | 'thinking', text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.type === type) last.text += text;
  else parts.push({ type, text });
}

/**
 * The stream's events, each as soon as it comes or `'aborted'` as soon as the
 * signal fires: a hanging stream cannot hold the loop. One abort listener for
 * the whole turn (`close` removes it), handed the pending read's resolver:
 * adding and removing a listener per event costs more than the event, and
 * racing one long-lived abort promise instead would pile a reaction onto it
 * for every chunk of the turn.
 */
class AbortableReader<T> {
  #wake: ((r: 'aborted') => void) | undefined = undefined;

  constructor(
    private readonly it: AsyncIterator<T>,
    private readonly signal: AbortSignal,
  ) {
    // The reader is its own listener (`handleEvent`): no closure per turn.
    signal.addEventListener('abort', this, { once: true });
  }

  handleEvent(): void {
    this.#wake?.('aborted');
  }

  next(): Promise<IteratorResult<T> | 'aborted'> {
    if (this.signal.aborted) return Promise.resolve('aborted');
    return new Promise((resolve, reject) => {
      this.#wake = resolve;
      this.it.next().then(resolve, reject);
    });
  }

  close(): void {
    this.#wake = undefined;
    this.signal.removeEventListener('abort', this);
  }
}

/**
 * The ids of a turn's calls as the conversation keeps them. A call id must be unique in the whole
 * conversation: Anthropic refuses a request with a tool_use id twice, compaction and every consumer
 * of the events tell calls apart by it, and a result could answer the wrong call. Chat Completions
 * servers need not keep them unique across responses (nor does our fallback for a server that gives
 * none, `call_<index>`): an id an earlier call of the conversation has is renamed, `<id>-2`, `-3`, …,
 * the same in its deltas, its call, its result and the message kept (the provider gets that id back).
 */
class CallIds {
  #used: Set<string> | undefined;
  readonly #renamed = new Map<string, string>();

  constructor(private readonly messages: readonly Message[]) {}

  of(id: string): string {
    const known = this.#renamed.get(id);
    if (known !== undefined) return known;
    // Built at the turn's first call: a turn without tools pays nothing.
    const used = (this.#used ??= new Set(this.messages.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : [])) : []))));
    let fresh = id;
    for (let n = 2; used.has(fresh); n++) fresh = `${id}-${n}`;
    used.add(fresh);
    this.#renamed.set(id, fresh);
    return fresh;
  }

  /** A provider's own assembly of the message, with the same ids as the events. */
  inContent(content: AssistantPart[]): AssistantPart[] {
    if (![...this.#renamed].some(([from, to]) => from !== to)) return content;
    return content.map((p) => (p.type === 'tool_call' ? { ...p, id: this.#renamed.get(p.id) ?? p.id } : p));
  }
}

/** A stream that broke the Model contract (host/models/types.ts `ModelEvent`): the turn fails with BAD_STREAM. */
const broken = (model: Model, toolCalls: ToolCallRequest[], what: string): ModelTurn => ({
  kind: 'error',
  toolCalls,
  usage: ZERO,
  error: { code: 'BAD_STREAM', message: `model ${model.id}: ${what}` },
});

/**
 * Characters one answer may stream (text, thinking, tool input) when the caller names no cap: the
 * conversation cap's default. An answer is held in memory and sent to every watcher as it streams;
 * a provider (or a gateway between) streaming without end grew both until the process ran out.
 */
const TURN_CHARS = 32_000_000;

/** The loop's `modelTimeoutMs` default, for callers that name none (the default compactor). */
const TURN_MS = 600_000;

/**
 * `maxChars`: the session's `maxConversationChars` (an answer past it could never be kept anyway).
 * `timeoutMs`: the whole call's deadline (`modelTimeoutMs`). A provider's idle timeout only bounds the
 * gap between two chunks: a stream sending a byte every few minutes held the turn (and the session's
 * lease, and a prompt slot) for good. Past it the model's own signal aborts (its HTTP stream closes)
 * and the turn fails with MODEL_TIMEOUT.
 */
export async function streamModelTurn(model: Model, request: ModelRequest, emit: Emit, maxChars = TURN_CHARS, timeoutMs = TURN_MS): Promise<ModelTurn> {
  const outer = request.signal;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DOMException(`model call took longer than ${timeoutMs} ms`, 'TimeoutError')), timerDelay(timeoutMs));
  const signal = AbortSignal.any([outer, deadline.signal]);
  const expired = (): ModelTurn => ({
    kind: 'error',
    toolCalls,
    usage: ZERO,
    error: { code: 'MODEL_TIMEOUT', message: `model ${model.id}: the call took longer than ${timeoutMs} ms (modelTimeoutMs) without finishing its answer` },
  });
  // Aborted by the caller: `aborted`; by the deadline alone: MODEL_TIMEOUT.
  const stopped = (): ModelTurn => (outer.aborted ? aborted : expired());
  let chars = 0;
  const tooLong = () => broken(model, toolCalls, `the answer passed ${maxChars} characters (maxConversationChars) before its message.end`);
  const parts: AssistantPart[] = [];
  const toolCalls: ToolCallRequest[] = [];
  const callIds = new Set<string>();
  const ids = new CallIds(request.messages);
  const aborted: ModelTurn = { kind: 'aborted', toolCalls, usage: ZERO };
  let started = false;
  let it: AsyncIterator<ModelEvent> | undefined;
  let reader: AbortableReader<ModelEvent> | undefined;
  try {
    it = model.stream({ ...request, signal })[Symbol.asyncIterator]();
    reader = new AbortableReader(it, signal);
    for (;;) {
      const r = await reader.next();
      if (r === 'aborted') return stopped();
      if (r.done) {
        if (signal.aborted) return stopped();
        return broken(model, toolCalls, 'the stream ended without message.end');
      }
      const ev = r.value;
      // The events of a message come inside it (docs/events.md): a stream that starts one twice, or
      // sends content before it, broke the contract; its content is not shown as if it were a message.
      if (started === (ev.type === 'message.start') && ev.type !== 'error') {
        return broken(model, toolCalls, started ? 'the stream sent a second message.start' : `the stream sent ${String(ev.type)} before message.start`);
      }
      switch (ev.type) {
        case 'message.start':
          started = true;
          emit({ type: 'message.start', model: ev.model });
          break;
        case 'text.delta':
          if ((chars += ev.text.length) > maxChars) return tooLong();
          appendText(parts, 'text', ev.text);
          emit({ type: 'text.delta', text: ev.text });
          break;
        case 'thinking.delta':
          if ((chars += ev.text.length) > maxChars) return tooLong();
          appendText(parts, 'thinking', ev.text);
          emit({ type: 'thinking.delta', text: ev.text });
          break;
        case 'tool.input.delta':
          if ((chars += ev.partialJson.length) > maxChars) return tooLong();
          emit({ type: 'tool.input.delta', index: ev.index, toolUseId: ids.of(ev.id), name: ev.name, partialJson: ev.partialJson });
          break;
        case 'tool.call': {
          // Each call is settled by its id (one tool.output or tool.denied): a second call with an id is not a call of its own.
          // A Set, not a scan of toolCalls: a hostile endpoint streaming many calls costs linear time, not quadratic.
          if (callIds.has(ev.id)) return broken(model, toolCalls, `the stream sent two tool calls with the id ${JSON.stringify(ev.id)}`);
          callIds.add(ev.id);
          const id = ids.of(ev.id);
          parts.push({ type: 'tool_call', id, name: ev.name, input: ev.input });
          toolCalls.push({ id, name: ev.name, input: ev.input });
          emit({ type: 'tool.call', toolUseId: id, name: ev.name, input: ev.input });
          break;
        }
        case 'message.end': {
          const content = ev.content ? ids.inContent(ev.content) : parts;
          const text = content.map((p) => (p.type === 'text' ? p.text : '')).join('');
          emit({ type: 'message.end', content, text, stopReason: ev.stopReason, usage: ev.usage });
          return { kind: 'done', content, toolCalls, stopReason: ev.stopReason, usage: ev.usage };
        }
        case 'error':
          return { kind: 'error', error: ev.error, toolCalls, usage: ZERO };
        default: {
          const never: never = ev;
          return broken(model, toolCalls, `unknown model event ${JSON.stringify(never)}`);
        }
      }
    }
  } catch (e) {
    if (signal.aborted) return stopped();
    return { kind: 'error', toolCalls, usage: ZERO, error: { code: 'BAD_STREAM', message: `model ${model.id} threw: ${messageOf(e)}` } };
  } finally {
    clearTimeout(timer);
    reader?.close();
    // Tell the provider to stop (closes the HTTP stream); ignore its answer.
    void Promise.resolve(it?.return?.()).catch(() => {});
  }
}
