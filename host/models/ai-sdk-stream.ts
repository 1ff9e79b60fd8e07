/**
 * Streaming one turn from an AI SDK model (loaded at the model's first turn,
 * see ai-sdk.ts): the prompt in the SDK's shape, `doStream` with retries, and
 * its parts read back as `ModelEvent`s.
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { messageOf } from '../errors.js';
import { codeForStatus } from './http.js';
import { badStream, inputCut, malformedToolInput } from './provider-stream.js';
import { backoffMs, type ResolvedRetry } from './retry.js';
import { AnswerParts, toPrompt } from './ai-sdk-prompt.js';
import type { ModelEvent, ModelFailure, ModelRequest, StopReason, Usage } from './types.js';
import { parseJson, TOOL_INPUT_JSON } from '../json.js';

/** What a turn uses of the model: the public `AiSdkLanguageModel` (ai-sdk.ts, which loads this file) has it. */
interface StreamingModel {
  readonly modelId: string;
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

/** One turn of `aiSdkModel(model, options)`; `id` names the model in failures. */
export async function* streamAiSdk(
  model: StreamingModel,
  options: { maxTokens?: number | undefined; temperature?: number | undefined; retry: ResolvedRetry },
  id: string,
  request: ModelRequest,
): AsyncGenerator<ModelEvent, void, undefined> {
  const retry = options.retry;
  const call = {
    prompt: toPrompt(request),
    ...(request.tools.length > 0
      ? { tools: request.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, inputSchema: t.inputSchema })) }
      : {}),
    ...(options.maxTokens === undefined ? {} : { maxOutputTokens: options.maxTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    abortSignal: request.signal,
  };
  const doStream = model.doStream.bind(model) as (options: typeof call) => PromiseLike<{ stream: ReadableStream<unknown> }>;
  let stream: ReadableStream<unknown> | undefined;
  for (let attempt = 0; stream === undefined; attempt++) {
    try {
      stream = (await doStream(call)).stream;
    } catch (error) {
      if (request.signal.aborted) return;
      if (!isRetryable(error) || attempt >= retry.maxRetries) {
        yield { type: 'error', error: failureOf(error, id) };
        return;
      }
      await retry.sleep(backoffMs(attempt, retry), request.signal);
      if (request.signal.aborted) return;
    }
  }
  yield* readParts(stream, request.signal, model.modelId, id);
}

// Built at a model's first stream (see lazy.ts), not when wasmhooks is imported.
const partSchemas = lazy(() => {
  const count = z.number().nullish();
  // SharedV2/V3/V4ProviderMetadata: an object of JSON objects by provider name.
  const providerMetadata = z.record(z.string(), z.record(z.string(), z.unknown())).optional();
  const block = z.object({ id: z.string(), providerMetadata });
  const delta = z.object({ id: z.string(), delta: z.string(), providerMetadata });
  return {
    'response-metadata': z.object({ modelId: z.string().nullish() }),
    'text-start': block,
    'text-delta': delta,
    'text-end': block,
    'reasoning-start': block,
    'reasoning-delta': delta,
    'reasoning-end': block,
    'tool-input-start': z.object({ id: z.string(), toolName: z.string(), providerExecuted: z.boolean().nullish() }),
    'tool-input-delta': z.object({ id: z.string(), delta: z.string() }),
    'tool-call': z.object({ toolCallId: z.string(), toolName: z.string(), input: z.string(), providerExecuted: z.boolean().nullish(), providerMetadata }),
    finish: z.object({
      // v2: a string and flat counts; v3/v4: { unified, raw } and nested counts.
      finishReason: z.union([z.string(), z.object({ unified: z.string() })]),
      usage: z.object({
        inputTokens: z.union([count, z.object({ total: count })]),
        outputTokens: z.union([count, z.object({ total: count })]),
      }),
    }),
    error: z.object({ error: z.unknown() }),
  } as const;
});
type PartSchemas = ReturnType<typeof partSchemas>;

const FINISH: Record<string, StopReason | 'interrupted'> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'content-filter': 'refusal',
  'tool-calls': 'tool_use',
  interrupted: 'interrupted',
  // LanguageModelV2/V3 `FinishReason` 'error': the model stopped because of an error, not a finished message.
  error: 'interrupted',
};

/** Finish reasons that end an answer wherever it stands, inside a tool call's input too. */
const CUTS = { length: 'limit', 'content-filter': 'filter' } as const;

async function* readParts(stream: ReadableStream<unknown>, signal: AbortSignal, modelId: string, label: string): AsyncGenerator<ModelEvent, void, undefined> {
  const reader = stream.getReader();
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  // Streamed inputs by id; `called` once its tool-call came (the call is what runs: deltas after it, or a
  // call under another name, would have the stream show one call and run another).
  const tools = new Map<string, { index: number; name: string; called?: true }>();
  /** Inputs streamed for tools the provider runs itself: their deltas are skipped, not refused. */
  const skipped = new Set<string>();
  const answer = new AnswerParts();
  let started = false;
  let calls = 0;
  // A tool-call whose input did not parse, or came empty (`held`: it runs with `{}` unless the limit cut it): judged at
  // the next part, as the finish part says whether the token limit cut it (a provider emits the call at its
  // block's end, before the finish reason).
  let broken: { call: string; detail: string; json: string; held?: ModelEvent } | undefined;
  try {
    while (true) {
      let chunk: ReadableStreamReadResult<unknown>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (!signal.aborted) yield badStream(`The stream from ${label} failed: ${messageOf(error)}`);
        return;
      }
      if (signal.aborted) return;
      if (chunk.done) return yield broken && !broken.held ? malformedToolInput(label, broken.call, broken.detail, broken.json) : badStream(`The stream from ${label} ended without a finish part.`);
      const type = z.object({ type: z.string() }).safeParse(chunk.value);
      if (!type.success) return yield badStream(`${label} streamed a part without a type.`);
      const kind = type.data.type;
      const schemas = partSchemas();
      if (!Object.hasOwn(schemas, kind)) continue; // stream-start, tool-input-end, sources, files, raw chunks
      const parsed = schemas[kind as keyof PartSchemas].safeParse(chunk.value);
      if (!parsed.success) return yield badStream(`Unexpected "${kind}" part from ${label}: ${z.prettifyError(parsed.error)}`);
      const part = { type: kind, ...parsed.data } as Part;
      if (broken && part.type !== 'error') {
        const reason = part.type === 'finish' ? (typeof part.finishReason === 'string' ? part.finishReason : part.finishReason.unified) : undefined;
        const cut = inputCut('finishReason', reason, CUTS);
        if (broken.held === undefined || cut !== undefined) return yield malformedToolInput(label, broken.call, broken.detail, broken.json, cut);
        yield broken.held;
        broken = undefined;
      }
      if (!started && part.type !== 'error') {
        started = true;
        yield { type: 'message.start', model: (part.type === 'response-metadata' && part.modelId) || modelId };
      }
      switch (part.type) {
        case 'response-metadata':
          break;
        case 'text-start':
        case 'text-end':
          answer.add('text', part.id, '', part.providerMetadata);
          break;
        case 'reasoning-start':
        case 'reasoning-end':
          answer.add('thinking', part.id, '', part.providerMetadata);
          break;
        case 'text-delta':
          answer.add('text', part.id, part.delta, part.providerMetadata);
          if (part.delta !== '') yield { type: 'text.delta', text: part.delta };
          break;
        case 'reasoning-delta':
          answer.add('thinking', part.id, part.delta, part.providerMetadata);
          if (part.delta !== '') yield { type: 'thinking.delta', text: part.delta };
          break;
        case 'tool-input-start':
          // A provider-executed tool's input is streamed too, but no tool.call of ours follows it.
          if (part.providerExecuted) skipped.add(part.id);
          else tools.set(part.id, { index: tools.size, name: part.toolName });
          break;
        case 'tool-input-delta': {
          if (skipped.has(part.id)) break;
          const tool = tools.get(part.id);
          // The AI SDK refuses input for a call no tool-input-start named (its UI stream throws): no name to show it under.
          if (tool === undefined) return yield badStream(`The stream from ${label} sent input for tool call ${part.id.slice(0, 100)} without a tool-input-start naming its tool.`);
          if (tool.called && part.delta !== '') return yield badStream(`The stream from ${label} sent input for tool call ${part.id} (${tool.name}) after the call itself.`);
          if (part.delta !== '') yield { type: 'tool.input.delta', index: tool.index, id: part.id, name: tool.name, partialJson: part.delta };
          break;
        }
        case 'tool-call': {
          if (part.providerExecuted) break; // run by the provider itself; nothing for us to do
          const streamed = tools.get(part.toolCallId);
          if (streamed !== undefined && (streamed.called || streamed.name !== part.toolName)) {
            return yield badStream(`The stream from ${label} ${streamed.called ? 'made' : `streamed the input of ${streamed.name} as`} tool call ${part.toolCallId} ${streamed.called ? 'twice' : `but called ${part.toolName}`}.`);
          }
          if (streamed) streamed.called = true;
          const parsed = part.input.trim() === '' ? { ok: true as const, value: {} } : parseJson(part.input, 'the input', TOOL_INPUT_JSON);
          if (!parsed.ok) {
            broken = { call: `${part.toolCallId} (${part.toolName})`, detail: parsed.message, json: part.input };
            break;
          }
          calls++;
          answer.call(part.toolCallId, part.toolName, parsed.value, part.providerMetadata);
          const call: ModelEvent = { type: 'tool.call', id: part.toolCallId, name: part.toolName, input: parsed.value };
          if (part.input.trim() === '') broken = { call: `${part.toolCallId} (${part.toolName})`, detail: '', json: '', held: call };
          else yield call;
          break;
        }
        case 'finish': {
          const reason = typeof part.finishReason === 'string' ? part.finishReason : part.finishReason.unified;
          const mapped = FINISH[reason] ?? 'end_turn';
          if (mapped === 'interrupted') return yield badStream(`The stream from ${label} ${reason === 'error' ? 'finished with reason "error"' : 'was interrupted before it completed'}.`);
          const stopReason = calls > 0 && mapped === 'end_turn' ? 'tool_use' : mapped;
          return yield { type: 'message.end', stopReason, usage: usageOf(part.usage), content: answer.parts };
        }
        case 'error':
          return yield { type: 'error', error: failureOf(part.error, label, true) };
        default:
          return part satisfies never;
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => {});
  }
}

type Part = { [K in keyof PartSchemas]: { type: K } & z.output<PartSchemas[K]> }[keyof PartSchemas];

function usageOf(usage: z.output<PartSchemas['finish']>['usage']): Usage {
  const total = (n: number | null | undefined | { total?: number | null | undefined }) =>
    (typeof n === 'object' && n !== null ? n.total : n) ?? 0;
  return { inputTokens: total(usage.inputTokens), outputTokens: total(usage.outputTokens) };
}

/** The AI SDK's APICallError carries `statusCode` and `isRetryable`; other errors are plain. */
const apiError = lazy(() => z.object({ statusCode: z.number().optional(), isRetryable: z.boolean().optional() }));

function isRetryable(error: unknown): boolean {
  const parsed = apiError().safeParse(error);
  return parsed.success && parsed.data.isRetryable === true;
}

function failureOf(error: unknown, label: string, midStream = false): ModelFailure {
  const status = apiError().safeParse(error).data?.statusCode;
  const where = midStream ? ' mid-stream' : '';
  const code = status === undefined ? (midStream ? 'BAD_STREAM' : 'NETWORK') : codeForStatus(status);
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  return { code, message: `${label} failed${where}${http}: ${messageOf(error)}` };
}
