/**
 * The scripted model: the offline default (no key, no network). It plays a
 * list of turns in order, or answers by rules matched on the last message,
 * and streams them like a provider would: text and thinking in word-sized
 * deltas, tool input JSON in partial pieces, optional delay per chunk.
 */
import { WasmhooksError } from '../errors.js';
import type { Message, Model, ModelEvent, ModelFailure, ModelRequest, StopReason, Usage } from './types.js';
import { timerDelay } from '../timer.js';

export interface ScriptedToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Default: `toolu_<n>`, unique per model. */
  id?: string;
}

/** One assistant turn, streamed as thinking → text → tool calls. */
export interface ScriptedTurn {
  thinking?: string;
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Yield this error instead of a message end (after any content). */
  error?: ModelFailure;
  /** Default: `tool_use` with tool calls, else `end_turn`. */
  stopReason?: StopReason;
  usage?: Partial<Usage>;
}

export type ScriptedReply = ScriptedTurn | ((request: ModelRequest) => ScriptedTurn);

/** Answers when the last message matches. Rules are tried in order, before the turn list. */
export interface ScriptedRule {
  when:
    | {
        /** The last message is from the user and its text matches. */
        lastUser?: string | RegExp;
        /** The last message is a tool result whose content matches. */
        lastToolResult?: string | RegExp;
        /** The last message is a result of this tool. */
        lastToolName?: string;
      }
    | ((request: ModelRequest) => boolean);
  reply: ScriptedReply;
  /** How many times the rule may fire. Default: unlimited. */
  times?: number;
}

export interface ScriptedModelOptions {
  turns?: ScriptedReply[];
  rules?: ScriptedRule[];
  /** Words per text delta (cycles 1…wordsPerDelta). Default 3. */
  wordsPerDelta?: number;
  /** Characters per tool.input.delta piece. Default 12. */
  jsonPieceSize?: number;
  /** Delay before each chunk, in ms. Default 0 (no timer at all). */
  delayMs?: number;
  id?: string;
  /** Advertised context window in tokens (lets tests drive auto-compaction). */
  contextWindow?: number;
}

export interface ScriptedModel extends Model {
  /** Every request the model received (messages as they were then), for tests. */
  readonly requests: ModelRequest[];
  /** Turns not yet played. */
  readonly remaining: number;
}

const matchText = (m: string | RegExp, text: string) => (typeof m === 'string' ? text.includes(m) : m.test(text));

function ruleMatches(rule: ScriptedRule, request: ModelRequest): boolean {
  if (typeof rule.when === 'function') return rule.when(request);
  const last: Message | undefined = request.messages[request.messages.length - 1];
  const { lastUser, lastToolResult, lastToolName } = rule.when;
  if (lastUser !== undefined && !(last?.role === 'user' && matchText(lastUser, last.content))) return false;
  if (lastToolResult !== undefined && !(last?.role === 'tool' && matchText(lastToolResult, last.content))) return false;
  if (lastToolName !== undefined && !(last?.role === 'tool' && last.toolName === lastToolName)) return false;
  return true;
}

function splitWords(text: string, max: number): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  const out: string[] = [];
  for (let i = 0, n = 1; i < words.length; n = (n % max) + 1) {
    out.push(words.slice(i, i + n).join(''));
    i += n;
  }
  return out;
}

function splitPieces(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

// Sizes of assistant messages, cached: the estimate runs on every call over the whole history.
const sizes = new WeakMap<object, number>();
function charsOf(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) {
    if (m.role !== 'assistant') n += m.content.length;
    else {
      let size = sizes.get(m);
      if (size === undefined) sizes.set(m, (size = JSON.stringify(m.content).length));
      n += size;
    }
  }
  return n;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    // Capped, never wrapped to 1 ms: `delayMs: Infinity` is a model that answers only when aborted.
    const t = setTimeout(done, timerDelay(ms));
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * @example
 * const model = scriptedModel({ turns: [
 *   { text: 'Reading it.', toolCalls: [{ name: 'Read', input: { file_path: 'a.txt' } }] },
 *   { text: 'Done.' },
 * ] });
 */
export function scriptedModel(options: ScriptedModelOptions | ScriptedReply[] = {}): ScriptedModel {
  const opts: ScriptedModelOptions = Array.isArray(options) ? { turns: options } : options;
  const turns = [...(opts.turns ?? [])];
  const rules = (opts.rules ?? []).map((r) => ({ ...r, left: r.times ?? Infinity }));
  const words = opts.wordsPerDelta ?? 3;
  const pieceSize = opts.jsonPieceSize ?? 12;
  const delayMs = opts.delayMs ?? 0;
  if (!(words >= 1) || !(pieceSize >= 1) || !(delayMs >= 0)) {
    throw new WasmhooksError('INVALID_OPTIONS', 'scriptedModel: wordsPerDelta and jsonPieceSize must be >= 1, delayMs >= 0');
  }
  const id = opts.id ?? 'scripted';
  const requests: ModelRequest[] = [];
  let callCounter = 0;

  function pick(request: ModelRequest): ScriptedTurn | undefined {
    const rule = rules.find((r) => r.left > 0 && ruleMatches(r, request));
    let reply: ScriptedReply | undefined;
    if (rule) {
      rule.left--;
      reply = rule.reply;
    } else reply = turns.shift();
    return typeof reply === 'function' ? reply(request) : reply;
  }

  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    requests.push({ ...request, messages: [...request.messages] });
    const { signal } = request;
    const turn = pick(request);
    const chunks: ModelEvent[] = [{ type: 'message.start', model: id }];
    let outChars = 0;
    if (!turn) {
      chunks.push({ type: 'error', error: { code: 'SCRIPT_EXHAUSTED', message: `the scripted model has no turn left for request ${requests.length}; add turns or rules to the script` } });
    } else {
      for (const text of splitWords(turn.thinking ?? '', words)) chunks.push({ type: 'thinking.delta', text });
      for (const text of splitWords(turn.text ?? '', words)) chunks.push({ type: 'text.delta', text });
      outChars += (turn.thinking ?? '').length + (turn.text ?? '').length;
      (turn.toolCalls ?? []).forEach((call, index) => {
        const callId = call.id ?? `toolu_${String(++callCounter).padStart(4, '0')}`;
        const json = JSON.stringify(call.input ?? {});
        outChars += json.length;
        for (const partialJson of splitPieces(json, pieceSize)) {
          chunks.push({ type: 'tool.input.delta', index, id: callId, name: call.name, partialJson });
        }
        chunks.push({ type: 'tool.call', id: callId, name: call.name, input: JSON.parse(json) as unknown });
      });
      if (turn.error) chunks.push({ type: 'error', error: turn.error });
      else {
        const stopReason = turn.stopReason ?? (turn.toolCalls?.length ? 'tool_use' : 'end_turn');
        const usage: Usage = {
          inputTokens: turn.usage?.inputTokens ?? Math.ceil((charsOf(request.messages) + (request.system?.length ?? 0)) / 4),
          outputTokens: turn.usage?.outputTokens ?? Math.ceil(outChars / 4),
        };
        chunks.push({ type: 'message.end', stopReason, usage });
      }
    }
    for (const chunk of chunks) {
      if (delayMs > 0) await sleep(delayMs, signal);
      if (signal.aborted) return;
      yield chunk;
    }
  }

  return {
    id,
    ...(opts.contextWindow !== undefined ? { contextWindow: opts.contextWindow } : {}),
    stream,
    requests,
    get remaining() {
      return turns.length;
    },
  };
}
