/**
 * Reading an OpenAI-compatible chat-completions stream (loaded at a model's
 * first turn, see provider.ts).
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { messageOf } from '../errors.js';
import { providerMessage } from './http.js';
import { type Chunk, chunkSchema } from './openai-wire.js';
import { badStream, inputCut, malformedToolInput, midStreamError, parseData, type WireDecoder } from './provider-stream.js';
import type { ModelEvent, StopReason, Usage } from './types.js';
import { parseJson, TOOL_INPUT_JSON } from '../json.js';

const FINISH_REASONS: Record<string, StopReason> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

/**
 * Finish reasons of compatible servers that say the completion did not finish: vLLM and SGLang
 * `abort`, OpenRouter `error` (usually with an `error` field, handled first). Read as a finished
 * message, they would end the prompt on a cut answer.
 */
const FAILED_REASONS = new Set(['abort', 'error']);

/** Finish reasons that end an answer wherever it stands, inside a call's arguments too. */
const CUTS = { length: 'limit', content_filter: 'filter' } as const;

interface ToolCallState {
  /** Empty until the stream names it (OpenAI sends it in the call's first chunk; some servers later). */
  id: string;
  name: string;
  args: string;
  /** Argument pieces that arrived before the id and name: held, so no delta goes out under a guessed id or an empty name. */
  held: string[];
  /** Set once the finish reason completed the call: later pieces would be dropped from its input. */
  done?: true;
}

/** Assembles one streamed completion: text, reasoning, tool calls per index, finish reason, usage. */
export class ChatCompletionsDecoder implements WireDecoder {
  private started = false;
  private finishReason: string | undefined;
  private refused = false;
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private readonly calls = new Map<number, ToolCallState>();
  /** Calls by id and the highest index, for deltas without an index (no scan per delta: a hostile stream may send many). */
  private readonly byId = new Map<string, number>();
  private lastIndex = -1;
  /** Wire indices reused for a new call (Ollama): the wire index → the call it now means. */
  private readonly moved = new Map<number, number>();

  constructor(
    private readonly label: string,
    private readonly model: string,
  ) {}

  push(message: EventSourceMessage): ModelEvent[] {
    if (message.data.trim() === '[DONE]') return [...this.start(undefined), ...this.end()];
    const parsed = parseData(chunkSchema(), message, this.label);
    if (parsed.ok && parsed.value.error) {
      return [midStreamError(this.label, parsed.value.error.message, parsed.value.error.type)];
    }
    // Some servers name the SSE event `error` with a body of their own shape.
    if (message.event === 'error') {
      return [midStreamError(this.label, providerMessage(message.data) ?? 'no message', undefined)];
    }
    if (!parsed.ok) return [{ type: 'error', error: parsed.failure }];
    const chunk = parsed.value;
    const events = this.start(chunk.model);
    if (chunk.usage) {
      this.usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
    }
    // Only the first choice is used: we never ask for n > 1.
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (choice === undefined) return events;
    const delta = choice.delta;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) events.push({ type: 'thinking.delta', text: reasoning });
    if (delta?.content) events.push({ type: 'text.delta', text: delta.content });
    if (delta?.refusal) {
      this.refused = true;
      events.push({ type: 'text.delta', text: delta.refusal });
    }
    const toolError = this.addToolDeltas(delta?.tool_calls ?? [], events);
    if (toolError) return [...events, toolError];
    if (choice.finish_reason) {
      if (FAILED_REASONS.has(choice.finish_reason)) {
        return [...events, badStream(`The stream from ${this.label} finished with reason "${choice.finish_reason}": the completion did not finish.`)];
      }
      // Some servers repeat the finish reason (in the usage chunk, say); the openai SDK keeps the
      // last one. The calls were completed at the first: completing them again would make each twice.
      const first = this.finishReason === undefined;
      this.finishReason = choice.finish_reason;
      if (first) events.push(...this.completeToolCalls());
    }
    return events;
  }

  finish(): ModelEvent[] {
    // Some servers close without `[DONE]`; after a finish reason nothing is missing but usage.
    if (this.finishReason !== undefined) return this.end();
    return [badStream(`The stream from ${this.label} ended before a finish reason and [DONE]; the response is incomplete.`)];
  }

  private start(model: string | null | undefined): ModelEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: 'message.start', model: model || this.model }];
  }

  /**
   * The `openai` SDK's accumulator reads a call's id and name from whichever chunk carries them
   * and appends each arguments piece. A stream that renames a call, or adds to it after its finish
   * reason, would have our deltas and the call disagree: BAD_STREAM rather than a silent choice.
   */
  private addToolDeltas(deltas: NonNullable<NonNullable<Chunk['choices']>[number]['delta']>['tool_calls'], events: ModelEvent[]): ModelEvent | undefined {
    for (const delta of deltas ?? []) {
      let index = delta.index === undefined || delta.index === null ? this.indexOf(delta.id, delta.function?.name) : (this.moved.get(delta.index) ?? delta.index);
      let call = this.calls.get(index);
      // Ollama (models without a parser of their own; LiteLLM's ollama_chat too) sends every call at
      // index 0, each whole in its chunk with an id of its own. A new id where a call with a name and
      // whole JSON arguments stands is then a new call (as the AI SDK reads it), and that wire index
      // means the new call from here on. A new id on a call not yet whole is still BAD_STREAM below.
      if (call !== undefined && delta.index !== undefined && delta.index !== null && delta.id && call.id !== '' && delta.id !== call.id && !call.done && this.whole(call)) {
        index = this.lastIndex + 1;
        this.moved.set(delta.index, index);
        call = undefined;
      }
      if (call === undefined) {
        if (this.finishReason !== undefined) {
          return badStream(`The stream from ${this.label} sent tool call ${index} after its finish reason.`);
        }
        call = { id: '', name: '', args: '', held: [] };
        this.calls.set(index, call);
        this.lastIndex = Math.max(this.lastIndex, index);
      }
      const piece = delta.function?.arguments ?? '';
      // Its id or name again (the same ones: another is refused below) adds nothing; arguments would be lost.
      if (call.done && piece !== '') {
        return badStream(`The stream from ${this.label} added to tool call ${index} (${call.name}) after its finish reason.`);
      }
      const id = delta.id ?? '';
      if (id !== '' && call.id !== '' && id !== call.id) {
        return badStream(`The stream from ${this.label} gave tool call ${index} a second id (${JSON.stringify(call.id)}, then ${JSON.stringify(id.slice(0, 100))}).`);
      }
      const name = delta.function?.name ?? '';
      if (name !== '' && call.name !== '' && name !== call.name) {
        return badStream(`The stream from ${this.label} gave tool call ${index} a second name (${JSON.stringify(call.name)}, then ${JSON.stringify(name.slice(0, 100))}).`);
      }
      if (id !== '' && call.id === '') {
        call.id = id;
        this.byId.set(id, index);
      }
      if (name !== '') call.name = name;
      if (piece !== '') {
        call.args += piece;
        call.held.push(piece);
      }
      if (call.id !== '' && call.name !== '') this.flush(index, call, events);
    }
    return undefined;
  }

  /**
   * Where a delta without `index` goes (Gemini's compatible API sends none, each call whole in its
   * own chunk): the call with its id, a new call for a new id or for a name when the last call has
   * one, else the last call (a continuation).
   */
  private indexOf(id: string | null | undefined, name: string | null | undefined): number {
    const last = this.lastIndex;
    if (id) return this.byId.get(id) ?? last + 1;
    const named = name && last >= 0 && this.calls.get(last)?.name !== '';
    return named || last < 0 ? last + 1 : last;
  }

  /** Whether a call has its name and arguments that parse as they stand (checked once per new id at its index). */
  private whole(call: ToolCallState): boolean {
    return call.name !== '' && call.args.trim() !== '' && parseJson(call.args, 'arguments', TOOL_INPUT_JSON).ok;
  }

  private flush(index: number, call: ToolCallState, events: ModelEvent[]): void {
    for (const partialJson of call.held) events.push({ type: 'tool.input.delta', index, id: call.id, name: call.name, partialJson });
    call.held.length = 0;
  }

  private completeToolCalls(): ModelEvent[] {
    const events: ModelEvent[] = [];
    for (const index of [...this.calls.keys()].sort((a, b) => a - b)) {
      const call = this.calls.get(index) as ToolCallState;
      if (call.name === '') return [badStream(`Tool call ${index} in the stream from ${this.label} has no function name.`)];
      // A call the stream never gave an id (some local servers) gets one from its index, as before.
      if (call.id === '') call.id = `call_${index}`;
      this.flush(index, call, events);
      call.done = true;
      // Named, then cut before any argument: not a call without arguments (those stream "{}").
      const cut = inputCut('finish_reason', this.finishReason, CUTS);
      if (call.args.trim() === '' && cut !== undefined) return [malformedToolInput(this.label, `${index} (${call.name})`, '', '', cut)];
      const parsed = call.args.trim() === '' ? { ok: true as const, value: {} } : parseJson(call.args, `tool call ${index} (${call.name}) arguments`, TOOL_INPUT_JSON);
      if (!parsed.ok) return [malformedToolInput(this.label, `${index} (${call.name})`, parsed.message, call.args, cut)];
      events.push({ type: 'tool.call', id: call.id, name: call.name, input: parsed.value });
    }
    return events;
  }

  private end(): ModelEvent[] {
    const events: ModelEvent[] = [];
    if (this.finishReason === undefined) events.push(...this.completeToolCalls());
    if (events.some((e) => e.type === 'error')) return events;
    // Several local servers report finish_reason "stop" even when they called tools.
    let stopReason = FINISH_REASONS[this.finishReason ?? 'stop'] ?? 'end_turn';
    if (this.calls.size > 0 && stopReason === 'end_turn') stopReason = 'tool_use';
    if (this.refused) stopReason = 'refusal';
    events.push({ type: 'message.end', stopReason, usage: this.usage });
    return events;
  }
}
