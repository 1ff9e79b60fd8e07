/**
 * The Model contract: one streamed assistant turn per call. Providers
 * (scripted, OpenAI-compatible, Anthropic, …) implement `Model`; the agent
 * loop is the only caller.
 */

/**
 * What an AI SDK provider attached to a part (by provider name: an Anthropic
 * thinking signature, a Gemini thought signature, …); sent back unchanged as
 * the part's `providerOptions` on the next turn.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** One block of an assistant message. `providerMetadata`: see `ProviderMetadata` (AI SDK models only). */
export type AssistantPart =
  | { type: 'text'; text: string; providerMetadata?: ProviderMetadata }
  /**
   * `signature` proves the thinking to the provider that produced it.
   * `redacted` holds Anthropic's encrypted `redacted_thinking` data (then
   * `text` is empty); both must be sent back unchanged.
   */
  | { type: 'thinking'; text: string; signature?: string; redacted?: string; providerMetadata?: ProviderMetadata }
  | { type: 'tool_call'; id: string; name: string; input: unknown; providerMetadata?: ProviderMetadata };

/** The conversation as the model sees it. The system prompt travels apart. */
export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: AssistantPart[] }
  | { role: 'tool'; toolUseId: string; toolName: string; content: string; isError: boolean };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  inputSchema: Record<string, unknown>;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal';

/** Typed provider failures; `retryable` says whether a retry could help. */
export type ModelErrorCode =
  | 'AUTH'
  | 'RATE_LIMITED'
  | 'BAD_REQUEST'
  | 'OVERLOADED'
  | 'NETWORK'
  | 'BAD_STREAM'
  | 'SCRIPT_EXHAUSTED'
  /** The call (the whole answer, not one gap in it) took longer than the loop's `modelTimeoutMs`. */
  | 'MODEL_TIMEOUT';

export interface ModelFailure {
  code: ModelErrorCode;
  message: string;
}

/**
 * What a model stream yields, in order: `message.start`, then any number of
 * deltas and complete `tool.call`s, then exactly one `message.end` or `error`.
 */
export type ModelEvent =
  | { type: 'message.start'; model: string }
  | { type: 'text.delta'; text: string }
  | { type: 'thinking.delta'; text: string }
  /** A piece of a tool call's JSON arguments, as streamed (not parseable alone). */
  | { type: 'tool.input.delta'; index: number; id: string; name: string; partialJson: string }
  | { type: 'tool.call'; id: string; name: string; input: unknown }
  /**
   * `content`, when present, is the whole assistant message as the provider
   * assembled it, including what deltas cannot carry (thinking signatures,
   * block boundaries). Keep it in history so providers that need signed
   * thinking blocks sent back (Anthropic) get them; fall back to the deltas
   * when it is absent.
   */
  | { type: 'message.end'; stopReason: StopReason; usage: Usage; content?: AssistantPart[] }
  | { type: 'error'; error: ModelFailure };

export interface ModelRequest {
  system?: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  signal: AbortSignal;
}

/**
 * A language model.
 *
 * Contract: `stream` does not throw for provider failures (bad key, 5xx,
 * broken stream): it yields a final `error` event instead. When `signal`
 * aborts, the stream stops promptly (it may end early or throw an AbortError).
 *
 * @example
 * for await (const ev of model.stream({ messages, tools, signal })) {
 *   if (ev.type === 'text.delta') process.stdout.write(ev.text);
 * }
 */
export interface Model {
  /** Provider and model, e.g. `openai:gpt-4o-mini` or `scripted`. */
  readonly id: string;
  /** Context window in tokens, when the provider knows it. */
  readonly contextWindow?: number;
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
