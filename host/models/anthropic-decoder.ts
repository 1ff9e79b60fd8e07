/**
 * Reading an Anthropic Messages stream (loaded at a model's first turn, see
 * provider.ts).
 */
import type { EventSourceMessage } from 'eventsource-parser';
import type { z } from 'zod';
import { messageOf } from '../errors.js';
import { envelopeSchema, type EventKind, eventSchemas, type WireUsage } from './anthropic-wire.js';
import { badStream, type InputCut, inputCut, malformedToolInput, midStreamError, parseData, type WireDecoder } from './provider-stream.js';
import type { AssistantPart, ModelEvent, StopReason, Usage } from './types.js';
import { parseJson, TOOL_INPUT_JSON } from '../json.js';

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
  model_context_window_exceeded: 'max_tokens',
};

/** Stop reasons that end an answer wherever it stands, inside a tool block's input too. */
const CUTS = { max_tokens: 'limit', model_context_window_exceeded: 'limit', refusal: 'filter' } as const;

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature?: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; ordinal: number; id: string; name: string; json: string; preset: unknown; input?: unknown; done?: true }
  | { kind: 'other' };

/** A block and whether its content_block_stop came: nothing may follow the stop, and it comes once. */
type Slot = { block: Block; stopped: boolean };

/** Assembles one streamed message from its content blocks. */
export class MessagesDecoder implements WireDecoder {
  private started = false;
  private stopReason: StopReason = 'end_turn';
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private readonly blocks = new Map<number, Slot>();
  private tools = 0;
  /**
   * A tool block whose input is in question at its content_block_stop: it did not parse, or none came
   * (`held`: its call, which runs with `{}` unless the limit cut it). The API sends that stop before the
   * message_delta whose stop_reason says why the answer ended: `max_tokens` there means the input was cut,
   * so the block is judged once that reason (or anything else) arrives.
   */
  private pending: { call: string; detail: string; json: string; held?: ModelEvent } | undefined;

  constructor(
    private readonly label: string,
    private readonly model: string,
  ) {}

  push(message: EventSourceMessage): ModelEvent[] {
    const envelope = parseData(envelopeSchema(), message, this.label);
    if (!envelope.ok) return [{ type: 'error', error: envelope.failure }];
    const kind = envelope.value.type;
    if (!Object.hasOwn(eventSchemas(), kind)) return []; // ping and kinds added after this was written
    return this.handle(kind as EventKind, message);
  }

  finish(): ModelEvent[] {
    if (this.pending && !this.pending.held) return [this.judged(undefined)];
    return [badStream(`The stream from ${this.label} ended before message_stop; the response is incomplete.`)];
  }

  private handle(kind: EventKind, message: EventSourceMessage): ModelEvent[] {
    // More content before the reason means the answer went on: the input was not cut.
    if (this.pending && kind !== 'message_delta' && kind !== 'error') {
      const held = this.pending.held;
      if (held === undefined) return [this.judged(undefined)];
      this.pending = undefined;
      return [held, ...this.settle(kind, message)];
    }
    return this.settle(kind, message);
  }

  private settle(kind: EventKind, message: EventSourceMessage): ModelEvent[] {
    switch (kind) {
      case 'message_start': {
        const ev = parseData(eventSchemas().message_start, message, this.label);
        if (!ev.ok) return [{ type: 'error', error: ev.failure }];
        this.addUsage(ev.value.message.usage);
        return this.start(ev.value.message.model);
      }
      case 'content_block_start': {
        const ev = parseData(eventSchemas().content_block_start, message, this.label);
        if (!ev.ok) return [{ type: 'error', error: ev.failure }];
        // A second start at an index would replace what the first block streamed (its text, its tool call).
        if (this.blocks.has(ev.value.index)) return [badStream(`The stream from ${this.label} started content block ${ev.value.index} twice.`)];
        const events = this.start(this.model);
        const block = ev.value.content_block;
        switch (block.type) {
          case 'text':
            this.set(ev.value.index, { kind: 'text', text: block.text ?? '' });
            if (block.text) events.push({ type: 'text.delta', text: block.text });
            break;
          case 'thinking':
            this.set(ev.value.index, { kind: 'thinking', text: block.thinking ?? '', signature: block.signature ?? undefined });
            if (block.thinking) events.push({ type: 'thinking.delta', text: block.thinking });
            break;
          case 'tool_use': {
            // An input given whole at the start is the tool input too: the same rule as one streamed in parts.
            const whole = parseJson(message.data, `tool call ${this.tools} (${block.name}) input`, TOOL_INPUT_JSON);
            if (!whole.ok) return [badStream(`The stream from ${this.label} started a tool call whose input is refused: ${whole.message}`)];
            this.set(ev.value.index, { kind: 'tool', ordinal: this.tools++, id: block.id, name: block.name, json: '', preset: block.input });
            break;
          }
          case 'redacted_thinking':
            this.set(ev.value.index, { kind: 'redacted', data: block.data });
            break;
          case 'other':
            this.set(ev.value.index, { kind: 'other' });
            break;
        }
        return events;
      }
      case 'content_block_delta': {
        const ev = parseData(eventSchemas().content_block_delta, message, this.label);
        if (!ev.ok) return [{ type: 'error', error: ev.failure }];
        return this.delta(ev.value.index, ev.value.delta);
      }
      case 'content_block_stop': {
        const ev = parseData(eventSchemas().content_block_stop, message, this.label);
        if (!ev.ok) return [{ type: 'error', error: ev.failure }];
        return this.stopBlock(ev.value.index);
      }
      case 'message_delta': {
        const ev = parseData(eventSchemas().message_delta, message, this.label);
        if (!ev.ok) return [{ type: 'error', error: ev.failure }];
        const reason = ev.value.delta.stop_reason;
        const pending = this.pending;
        const cut = inputCut('stop_reason', reason, CUTS);
        if (pending && (cut !== undefined || !pending.held)) return [this.judged(cut)];
        this.pending = undefined;
        const events = pending?.held ? [pending.held] : [];
        // pause_turn: a long server-tool turn the API wants sent back as is to go on. We keep no
        // server-tool blocks (we never offer server tools), so it cannot go on: not a finished message.
        if (reason === 'pause_turn') return [badStream(`The stream from ${this.label} paused its turn (pause_turn); wasmhooks does not resume server-tool turns, so the answer is incomplete.`)];
        if (reason) this.stopReason = STOP_REASONS[reason] ?? 'end_turn';
        this.addUsage(ev.value.usage);
        return events;
      }
      case 'message_stop': {
        const open = [...this.blocks.values()].map((slot) => slot.block).find((b) => b.kind === 'tool' && !b.done);
        if (open?.kind === 'tool') return [badStream(`The stream from ${this.label} ended tool call ${open.ordinal} (${open.name}) without content_block_stop.`)];
        return [...this.start(this.model), { type: 'message.end', stopReason: this.stopReason, usage: this.usage, content: this.content() }];
      }
      case 'error': {
        const ev = parseData(eventSchemas().error, message, this.label);
        if (!ev.ok) return [{ type: 'error', error: ev.failure }];
        return [midStreamError(this.label, ev.value.error.message, ev.value.error.type)];
      }
      default:
        return kind satisfies never;
    }
  }

  private delta(index: number, delta: z.infer<ReturnType<typeof eventSchemas>['content_block_delta']>['delta']): ModelEvent[] {
    const slot = this.blocks.get(index);
    if (slot === undefined) return [badStream(`The stream from ${this.label} sent a delta for content block ${index} before starting it.`)];
    if (slot.stopped) return [badStream(`The stream from ${this.label} sent a ${delta.type} for content block ${index} after its content_block_stop.`)];
    const block = slot.block;
    // A kind we do not model (server_tool_use, web_search_tool_result, …) takes whatever deltas the API streams for it.
    if (block.kind === 'other') return [];
    switch (delta.type) {
      case 'text_delta':
        if (block.kind !== 'text') return [this.mismatch(index, delta.type)];
        block.text += delta.text;
        return delta.text === '' ? [] : [{ type: 'text.delta', text: delta.text }];
      case 'thinking_delta':
        if (block.kind !== 'thinking') return [this.mismatch(index, delta.type)];
        block.text += delta.thinking;
        return delta.thinking === '' ? [] : [{ type: 'thinking.delta', text: delta.thinking }];
      case 'signature_delta':
        if (block.kind !== 'thinking') return [this.mismatch(index, delta.type)];
        block.signature = (block.signature ?? '') + delta.signature;
        return [];
      case 'input_json_delta':
        if (block.kind !== 'tool') return [this.mismatch(index, delta.type)];
        block.json += delta.partial_json;
        if (delta.partial_json === '') return [];
        return [{ type: 'tool.input.delta', index: block.ordinal, id: block.id, name: block.name, partialJson: delta.partial_json }];
      case 'other':
        return [];
      default:
        return delta satisfies never;
    }
  }

  private stopBlock(index: number): ModelEvent[] {
    const slot = this.blocks.get(index);
    if (slot === undefined) return [badStream(`The stream from ${this.label} stopped content block ${index} that never started.`)];
    if (slot.stopped) return [badStream(`The stream from ${this.label} stopped content block ${index} twice.`)];
    slot.stopped = true;
    const block = slot.block;
    if (block.kind !== 'tool') return [];
    const call = `${block.ordinal} (${block.name})`;
    let input: unknown = block.preset ?? {};
    if (block.json.trim() !== '') {
      const parsed = parseJson(block.json, 'the input', TOOL_INPUT_JSON);
      if (!parsed.ok) {
        this.pending = { call, detail: parsed.message, json: block.json };
        return [];
      }
      input = parsed.value;
    }
    block.input = input;
    block.done = true;
    const event: ModelEvent = { type: 'tool.call', id: block.id, name: block.name, input };
    // Nothing streamed and nothing given at the start: a call without arguments, or one the limit cut after its name.
    const none = block.json.trim() === '' && (block.preset === undefined || (typeof block.preset === 'object' && block.preset !== null && Object.keys(block.preset).length === 0));
    if (!none) return [event];
    this.pending = { call, detail: '', json: '', held: event };
    return [];
  }

  /** The pending block's failure: cut when `cut` says how the answer ended, else malformed. */
  private judged(cut: InputCut | undefined): ModelEvent {
    const p = this.pending as NonNullable<MessagesDecoder['pending']>;
    this.pending = undefined;
    return malformedToolInput(this.label, p.call, p.detail, p.json, cut);
  }

  private set(index: number, block: Block): void {
    this.blocks.set(index, { block, stopped: false });
  }

  private mismatch(index: number, deltaType: string): ModelEvent {
    return badStream(`The stream from ${this.label} sent a ${deltaType} for content block ${index} of another kind.`);
  }

  private start(model: string): ModelEvent[] {
    if (this.started) return [];
    this.started = true;
    return [{ type: 'message.start', model }];
  }

  /** Input counts arrive in message_start (and again, final, in message_delta); output counts are cumulative. */
  private addUsage(usage: WireUsage | null | undefined): void {
    if (!usage) return;
    if (usage.input_tokens != null) {
      const cached = (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
      this.usage.inputTokens = usage.input_tokens + cached;
    }
    if (usage.output_tokens != null) this.usage.outputTokens = usage.output_tokens;
  }

  private content(): AssistantPart[] {
    const parts: AssistantPart[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const block = (this.blocks.get(index) as Slot).block;
      switch (block.kind) {
        case 'text':
          parts.push({ type: 'text', text: block.text });
          break;
        case 'thinking':
          parts.push(block.signature ? { type: 'thinking', text: block.text, signature: block.signature } : { type: 'thinking', text: block.text });
          break;
        case 'redacted':
          parts.push({ type: 'thinking', text: '', redacted: block.data });
          break;
        case 'tool':
          parts.push({ type: 'tool_call', id: block.id, name: block.name, input: block.input });
          break;
        case 'other':
          break;
        default:
          block satisfies never;
      }
    }
    return parts;
  }
}
