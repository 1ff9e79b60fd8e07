/**
 * A loaded WASM plugin: its validated `describe` answer, its sandbox, and
 * the hook and tool handlers it contributes to a host.
 */
import { WasmhooksError } from '../errors.js';
import type { PluginFailure } from '../failure.js';
import { defaultFailurePolicy } from '../hooks/decisions.js';
import { parseToolMatcher, type ToolMatcher } from '../hooks/matcher.js';
import { matchedSubject } from '../hooks/chain.js';
import type { HookHandler, HookInput, HookResult } from '../hooks/types.js';
import type { PluginContribution, PluginHealthChange, PluginLogLine, ToolHandler, ToolOutcome, ToolRunContext } from '../tools/types.js';
import type { PluginBinding, PluginInfo } from '../protocol/codec.js';
import { encodeHookInputView } from '../protocol/hook-request.js';
import type { Limits, SandboxedModule } from '../sandbox/types.js';
import type { WasiGrant } from '../sandbox/wasi/options.js';
import { callExtismTool, type ResolvedExtismTool } from './extism-tools.js';
import type { ResolvedGrants } from './grants.js';
import type { ResolvedPluginOptions } from './options.js';
import { HookCall, type LogOwner } from './hook-call.js';
import { returnCodeFailure } from './return-code.js';
import { logLevel } from '../sandbox/plugin-messages.js';
import { wireContext } from '../protocol/wire.js';

export interface WasmPluginParts {
  info: PluginInfo;
  sandbox: SandboxedModule;
  sha256: string;
  origin: string;
  options: ResolvedPluginOptions;
  /** The WASI grant, null when WASI is off. */
  wasi: WasiGrant | null;
  /** Listeners of the sandbox's log lines (the sandbox reports to `emit`). */
  logs: Set<(level: PluginLogLine['level'], message: string) => void>;
  /** For a plugin used through its exports (no protocol): the tools, by export. */
  extismTools?: readonly ResolvedExtismTool[];
}

/** What a loaded plugin is and was given: its bytes' hash with every grant, as one record. */
export interface PluginPin {
  sha256: string;
  grants: ResolvedGrants;
  wasi: WasiGrant | null;
}

export class WasmPlugin implements PluginContribution {
  readonly name: string;
  readonly info: PluginInfo;
  readonly sha256: string;
  readonly origin: string;
  readonly #sandbox: SandboxedModule;
  readonly #options: ResolvedPluginOptions;
  /** Settles when the running tool call (if any) is done: see `callTool`. */
  #toolTurn: Promise<void> = Promise.resolve();
  readonly #extismTools: ReadonlyMap<string, ResolvedExtismTool>;
  readonly #logs: WasmPluginParts['logs'];
  /** Where a hook call outside any session sends its log lines (the plugin's `onLog` listeners); one per plugin, off the class's surface. */
  readonly #logOwner: LogOwner;
  /** The WASI grant, null when WASI is off. */
  readonly wasi: WasiGrant | null;
  /** One compiled matcher per binding (undefined: matches every tool). */
  readonly #matchers: ReadonlyArray<ToolMatcher | undefined>;

  constructor(parts: WasmPluginParts) {
    this.info = parts.info;
    this.name = parts.info.name;
    this.sha256 = parts.sha256;
    this.origin = parts.origin;
    this.#sandbox = parts.sandbox;
    this.#options = parts.options;
    this.wasi = parts.wasi;
    this.#logs = parts.logs;
    const logs = parts.logs;
    this.#logOwner = {
      name: this.name,
      log(level, message) {
        const known = logLevel(level);
        for (const listener of logs) listener(known, message);
      },
    };
    this.#extismTools = new Map((parts.extismTools ?? []).map((t) => [t.name, t]));
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

  /** The sha256 of the plugin's bytes with everything it was granted. */
  get pin(): PluginPin {
    return { sha256: this.sha256, grants: this.#options.grants, wasi: this.wasi };
  }

  /** True for a plugin used through its exports rather than the wasmhooks protocol. */
  get isExtismTools(): boolean {
    return this.#extismTools.size > 0;
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
  callHook(input: HookInput, options?: { signal?: AbortSignal; timeoutMs?: number; bindingIndex?: number }): Promise<HookResult> {
    try {
      const bindingIndex = options?.bindingIndex ?? this.#bindingFor(input);
      if (bindingIndex < 0) return Promise.resolve({ ok: true, output: {} });
      return this.#callBinding(input, bindingIndex, options?.signal, options?.timeoutMs, undefined);
    } catch (error) {
      // As from an async function: an input that cannot be encoded (a cycle, a BigInt) rejects.
      return Promise.reject(error);
    }
  }

  /**
   * The hot path (a registered handler lands here): encode straight into the encoder's buffer and
   * lend it to the sandbox, call, decode; one promise (the sandbox's, resolving to the hook result), no async frame, no closure. The
   * answer is decoded and checked inside the call (`HookCall.check`), so an unreadable answer
   * counts toward quarantine.
   */
  #callBinding(
    input: HookInput,
    bindingIndex: number,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    sink: ((line: PluginLogLine) => void) | undefined,
  ): Promise<HookResult> {
    // A mapped call: the sandbox's promise resolves to `call.result(outcome)` itself.
    return this.#sandbox.call('hook', encodeHookInputView(input, bindingIndex), new HookCall(input.hook_event_name, signal, timeoutMs ? { timeoutMs } : undefined, this.#logOwner, sink));
  }

  /**
   * Calls the plugin's `tool` export. Never throws: a failure is an error result.
   *
   * One tool call of a plugin at a time (its sandbox runs them one at a time anyway). Each call's
   * progress goes to its own `ctx.onProgress` (`CallOptions.onProgress`: the sandbox hands a message
   * to the call that was running when the plugin sent it); a hook call's progress goes nowhere.
   */
  async callTool(name: string, input: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolOutcome> {
    const previous = this.#toolTurn;
    let release!: () => void;
    this.#toolTurn = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await this.#callToolNow(name, input, ctx);
    } finally {
      release();
    }
  }

  async #callToolNow(name: string, input: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolOutcome> {
    const extism = this.#extismTools.get(name);
    const sink = ctx.onLog;
    // This call's lines go to its session alone (ToolRunContext.onLog); without one, to the plugin's listeners.
    const onLog = sink ? (level: string, message: string) => sink.call(ctx, { plugin: this.name, level: logLevel(level), message }) : undefined;
    if (extism) return callExtismTool(this.#sandbox, this.name, extism, input, ctx, onLog);
    // Tool messages still go through protobufjs's generated code, loaded here: not on a guard's cold start.
    const { encodeToolRequest, decodeToolResponse } = await import('../protocol/pb-codec.js');
    const request = encodeToolRequest({
      name,
      inputJson: JSON.stringify(input),
      context: wireContext(ctx.context, ctx.toolUseId),
    });
    let decoded: ReturnType<typeof decodeToolResponse> | undefined;
    const outcome = await this.#sandbox.call('tool', request, {
      signal: ctx.signal,
      onProgress: ctx.onProgress,
      ...(onLog ? { onLog } : {}),
      check: (output, code) => {
        const failed = returnCodeFailure(this.name, 'tool', code);
        if (failed) return failed;
        decoded = decodeToolResponse(output);
        return decoded.ok ? null : decoded.failure;
      },
    });
    if (!outcome.ok || !decoded?.ok) {
      const f = outcome.ok ? { code: 'BAD_OUTPUT', message: 'the tool output was not decoded' } : outcome.failure;
      return { content: `tool ${name} (plugin ${this.name}) failed: ${f.code}: ${f.message}`, isError: true };
    }
    return decoded.value;
  }

  /** For direct calls: the first binding of the input's event whose matcher accepts its tool (or `matchOn` field), or -1. */
  #bindingFor(input: HookInput): number {
    const tool = matchedSubject(input);
    const hooks = this.info.hooks;
    for (let i = 0; i < hooks.length; i++) {
      const m = this.#matchers[i];
      if (hooks[i]!.event === input.hook_event_name && (!m || tool === undefined || m.test(tool))) return i;
    }
    return -1;
  }

  onHealth(listener: (change: PluginHealthChange) => void): () => void {
    return this.#sandbox.onHealth((e) =>
      listener({
        plugin: this.name,
        status: e.to,
        failures: e.consecutiveFailures,
        ...(e.failure ? { message: healthMessage(e.failure) } : {}),
      }),
    );
  }

  onLog(listener: (line: PluginLogLine) => void): () => void {
    const forward = (level: PluginLogLine['level'], message: string) => listener({ plugin: this.name, level, message });
    this.#logs.add(forward);
    return () => this.#logs.delete(forward);
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
      run: (input, ctx) => this.#callBinding(input, index, ctx.signal, undefined, ctx.onLog),
    };
  }
}

/**
 * What a `plugin.health` event (sent to every session with a prompt running) says of the failure
 * behind it: its code and a fixed sentence per code, never the failure's own message. The messages
 * the host words itself still carry what the plugin chose: `alloc(n)` refused quotes n (64 bits of
 * its choice, taken from one session's input), MISSING_EXPORT lists its export names, a MEMORY_LIMIT
 * read from a trap quotes the trap's text (rv12). The whole message stays in that call's own events
 * (hook.end's failure, the tool's error result).
 */
const HEALTH_WORDS: Partial<Record<PluginFailure['code'], string>> = {
  TIMEOUT: 'a call ran past its deadline',
  FUEL_EXHAUSTED: 'a call used up its fuel',
  MEMORY_LIMIT: 'a call reached the memory cap',
  STACK_OVERFLOW: 'a call overflowed the call stack',
  OUTPUT_TOO_LARGE: 'a call wrote more than its caps allow',
  INPUT_TOO_LARGE: 'a call\'s input was over maxInputBytes',
  ABORTED: 'a call was aborted',
  QUARANTINED: 'the plugin is quarantined',
  MISSING_EXPORT: 'the plugin lacks an export a call needs',
  PROTOCOL_MISMATCH: 'the plugin speaks another protocol version',
};

function healthMessage(failure: PluginFailure): string {
  const words = HEALTH_WORDS[failure.code];
  return `${failure.code}: ${words ?? 'see the failing call\'s own events'}`;
}
