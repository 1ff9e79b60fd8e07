/**
 * A loaded WASM plugin: its validated `describe` answer, its sandbox, and
 * the hook and tool handlers it contributes to a host.
 */
import { WasmhooksError } from '../errors.js';
import { defaultFailurePolicy } from '../hooks/decisions.js';
import { parseToolMatcher, type ToolMatcher } from '../hooks/matcher.js';
import type {
  HookHandler,
  HookInput,
  HookResult,
  PluginContribution,
  PluginHealthChange,
  ToolHandler,
  ToolOutcome,
  ToolRunContext,
} from '../hooks/types.js';
import { decodeHookResponse, decodeToolResponse, encodeToolRequest, type PluginBinding, type PluginInfo } from '../protocol/codec.js';
import { encodeHookInput } from '../protocol/hook-request.js';
import type { CallOptions, CallOutcome, Limits, SandboxedModule } from '../sandbox/types.js';
import type { ResolvedPluginOptions } from './options.js';
import { fromWireResponse, wireContext } from './wire.js';

/** A `hook` call's outcome as the handler's result: the decoded answer, or the failure, with the fuel used. */
function hookResult(outcome: CallOutcome): HookResult {
  if (!outcome.ok) return { ok: false, failure: outcome.failure, fuelUsed: outcome.fuelUsed };
  const decoded = decodeHookResponse(outcome.output);
  if (!decoded.ok) return { ok: false, failure: decoded.failure, fuelUsed: outcome.fuelUsed };
  return { ok: true, output: fromWireResponse(decoded.value), fuelUsed: outcome.fuelUsed };
}

/** Call options shared by every call without a signal or deadline of its own (nothing to allocate). */
const NO_OPTIONS: CallOptions = Object.freeze({});

export interface WasmPluginParts {
  info: PluginInfo;
  sandbox: SandboxedModule;
  sha256: string;
  origin: string;
  options: ResolvedPluginOptions;
  /** Where the sandbox's progress host function reports, per running tool call. */
  progress: { current: ((message: string) => void) | undefined };
}

export class WasmPlugin implements PluginContribution {
  readonly name: string;
  readonly info: PluginInfo;
  readonly sha256: string;
  readonly origin: string;
  readonly #sandbox: SandboxedModule;
  readonly #options: ResolvedPluginOptions;
  readonly #progress: WasmPluginParts['progress'];
  /** One compiled matcher per binding (undefined: matches every tool). */
  readonly #matchers: ReadonlyArray<ToolMatcher | undefined>;
  #lastOptions: CallOptions | undefined;

  constructor(parts: WasmPluginParts) {
    this.info = parts.info;
    this.name = parts.info.name;
    this.sha256 = parts.sha256;
    this.origin = parts.origin;
    this.#sandbox = parts.sandbox;
    this.#options = parts.options;
    this.#progress = parts.progress;
    // decodePluginInfo already checked (and compiled) each matcher: this is a cache hit.
    this.#matchers = parts.info.hooks.map((b, i) => {
      const parsed = parseToolMatcher(b.matcher);
      if (!parsed.ok) throw new WasmhooksError('BAD_OUTPUT', `plugin ${this.name}: hooks[${i}] (${b.event}): ${parsed.message}`);
      return parsed.matcher;
    });
  }

  /** The limits every call of this plugin runs under. */
  get limits(): Readonly<Limits> {
    return this.#sandbox.limits;
  }

  /** The sandbox, for health and low-level calls (tests, tooling). */
  get sandbox(): SandboxedModule {
    return this.#sandbox;
  }

  /** One handler per binding of `describe`, in the plugin's order. */
  hooks(): HookHandler[] {
    return this.info.hooks.map((binding, index) => this.#handler(binding, index));
  }

  tools(): ToolHandler[] {
    return this.info.tools.map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: spec.inputSchema,
      kind: 'wasm',
      plugin: this.name,
      run: (input, ctx) => this.callTool(spec.name, input, ctx),
    }));
  }

  /**
   * Calls the plugin's `hook` export for one binding (default: the first whose event and matcher
   * accept `input`; when none does, the host would not call the plugin: `continue`, no call).
   * The guest runs that binding's handler only. Never throws: failures are data.
   */
  async callHook(
    input: HookInput,
    options: { signal?: AbortSignal; timeoutMs?: number; bindingIndex?: number } = {},
  ): Promise<HookResult> {
    const bindingIndex = options.bindingIndex ?? this.#bindingFor(input);
    if (bindingIndex < 0) return { ok: true, output: {} };
    if (!options.timeoutMs) return this.#callBinding(input, bindingIndex, this.#optionsFor(options.signal));
    return this.#callBinding(input, bindingIndex, {
      ...(options.signal ? { signal: options.signal } : {}),
      limits: { timeoutMs: options.timeoutMs },
    });
  }

  /** The hot path (a registered handler lands here): encode, call, decode; a plain promise chain, no async frame. */
  #callBinding(input: HookInput, bindingIndex: number, callOptions: CallOptions): Promise<HookResult> {
    return this.#sandbox.call('hook', encodeHookInput(input, bindingIndex), callOptions).then(hookResult);
  }

  /** Calls the plugin's `tool` export. Never throws: a failure is an error result. */
  async callTool(name: string, input: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolOutcome> {
    const request = encodeToolRequest({
      name,
      inputJson: JSON.stringify(input),
      context: wireContext(ctx.context, ctx.toolUseId),
    });
    this.#progress.current = ctx.onProgress;
    try {
      const outcome = await this.#sandbox.call('tool', request, { signal: ctx.signal });
      if (!outcome.ok) {
        return { content: `tool ${name} (plugin ${this.name}) failed: ${outcome.failure.code}: ${outcome.failure.message}`, isError: true };
      }
      const decoded = decodeToolResponse(outcome.output);
      if (!decoded.ok) {
        return { content: `tool ${name} (plugin ${this.name}) failed: ${decoded.failure.code}: ${decoded.failure.message}`, isError: true };
      }
      return decoded.value;
    } finally {
      this.#progress.current = undefined;
    }
  }

  /** One options object per prompt signal, not per call (the loop passes the same signal to every hook of a prompt). */
  #optionsFor(signal: AbortSignal | undefined): CallOptions {
    if (!signal) return NO_OPTIONS;
    if (this.#lastOptions?.signal !== signal) this.#lastOptions = { signal };
    return this.#lastOptions;
  }

  /** For direct calls: the first binding of the input's event whose matcher accepts its tool, or -1. */
  #bindingFor(input: HookInput): number {
    const tool = 'tool_name' in input ? input.tool_name : undefined;
    return this.#matchers.findIndex(
      (m, i) => this.info.hooks[i]?.event === input.hook_event_name && (!m || tool === undefined || m.test(tool)),
    );
  }

  onHealth(listener: (change: PluginHealthChange) => void): () => void {
    return this.#sandbox.onHealth((e) =>
      listener({
        plugin: this.name,
        status: e.to,
        failures: e.consecutiveFailures,
        ...(e.failure ? { message: `${e.failure.code}: ${e.failure.message}` } : {}),
      }),
    );
  }

  close(): Promise<void> {
    return this.#sandbox.close();
  }

  #handler(binding: PluginBinding, index: number): HookHandler {
    const event = binding.event;
    return {
      id: `${this.name}#${index}`,
      name: this.name,
      kind: 'wasm',
      event,
      plugin: this.name,
      ...(this.#matchers[index] ? { matcher: this.#matchers[index] } : {}),
      failurePolicy: this.#options.failurePolicy[event] ?? binding.failurePolicy ?? defaultFailurePolicy(event),
      timeoutMs: this.#sandbox.limits.timeoutMs,
      // The sandbox enforces timeoutMs (its own deadline, in-thread or in a worker); ctx.signal is
      // the prompt's own signal, read once and passed on (a worker delivers it mid-call).
      enforcesTimeout: true,
      run: (input, ctx) => this.#callBinding(input, index, this.#optionsFor(ctx.signal)),
    };
  }
}
