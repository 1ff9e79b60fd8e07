/**
 * Test a wasmhooks plugin from JS/TS without a host: load the built .wasm with
 * Extism, send protobuf-encoded requests, get plain objects back.
 *
 * @example
 * ```ts
 * const guard = await loadForTest(new URL('../build/guard-shell.wasm', import.meta.url));
 * const r = await guard.preToolUse('Bash', { command: 'rm -rf /' });
 * assert.equal(r.decision, 'deny');
 * await guard.close();
 * ```
 */
import createPlugin, { type CallContext, type Plugin } from '@extism/extism';
import protobuf from 'protobufjs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const DEFAULT_PROTO = new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url);

export type DecisionName = 'unspecified' | 'continue' | 'allow' | 'deny' | 'ask' | 'stop' | 'block';

/** A decoded HookResponse; empty strings where the plugin set nothing. */
export interface TestVerdict {
  decision: DecisionName;
  reason: string;
  updatedInputJson: string;
  additionalContext: string;
  systemMessage: string;
  updatedOutputJson: string;
  updatedPermissionsJson: string;
}

export interface TestToolResponse {
  content: string;
  isError: boolean;
}

/** proto3 JSON of a message (camelCase fields, enum names), as protobufjs `fromObject` accepts it. */
export type MessageFields = Record<string, unknown>;

export interface TestPlugin {
  /** The decoded PluginInfo, in proto3 JSON form (enum names, defaults omitted). */
  describe(): Promise<MessageFields>;
  /**
   * A PreToolUse request for `toolName` with `input` as its JSON input, to the plugin's PreToolUse
   * binding (`binding`: its index in `describe().hooks`, needed when the plugin has several).
   */
  preToolUse(toolName: string, input: unknown, context?: MessageFields, binding?: number): Promise<TestVerdict>;
  /**
   * Any HookRequest, given in proto3 JSON form. Without a `bindingIndex`, it goes to the plugin's
   * only binding for the request's event (and is refused if there are several, or none).
   */
  hook(request: MessageFields): Promise<TestVerdict>;
  /** Calls one of the plugin's tools. */
  tool(name: string, input: unknown, context?: MessageFields): Promise<TestToolResponse>;
  /** Calls an export with raw bytes; rejects with the plugin's error message. */
  callRaw(fn: string, input: Uint8Array): Promise<Uint8Array>;
  /** Progress messages reported through `progress()` so far. */
  readonly progress: string[];
  /** Log lines the plugin wrote (`log()`, and the message of an abort), as "level: text". */
  readonly logs: string[];
  close(): Promise<void>;
}

export interface LoadOptions {
  /** Where hooks.proto lives (defaults to the copy in this repository). */
  protoPath?: string | URL;
  /** Config values the plugin can read with `config(key)`, as an operator would grant them. */
  config?: Record<string, string>;
}

/** Loads a plugin for testing. `wasm` is a path, a file URL or the bytes. */
export async function loadForTest(wasm: string | URL | Uint8Array, options: LoadOptions = {}): Promise<TestPlugin> {
  const bytes = wasm instanceof Uint8Array ? wasm : await readFile(wasm);
  const protoPath = options.protoPath ?? DEFAULT_PROTO;
  const root = protobuf.loadSync(protoPath instanceof URL ? fileURLToPath(protoPath) : protoPath);
  const type = (name: string) => root.lookupType(`wasmhooks.v1.${name}`);
  const progress: string[] = [];
  const logs: string[] = [];
  const record = (level: string) => (message: unknown) => logs.push(`${level}: ${String(message)}`);
  const logger = { trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const plugin: Plugin = await createPlugin(
    { wasm: [{ data: bytes }] },
    {
      useWasi: false,
      runInWorker: false,
      config: options.config ?? {},
      logger: logger as unknown as Console,
      logLevel: 'trace',
      functions: {
        'wasmhooks:host': {
          progress: (cc: CallContext, address: bigint) => {
            progress.push(cc.read(address)?.text() ?? '');
          },
        },
      },
    },
  );

  const callRaw = async (fn: string, input: Uint8Array): Promise<Uint8Array> => {
    const out = await plugin.call(fn, input);
    return out ? out.bytes() : new Uint8Array();
  };
  const encode = (name: string, fields: MessageFields) => {
    const t = type(name);
    const problem = t.verify(t.fromObject(fields));
    if (problem) throw new TypeError(`not a valid ${name}: ${problem}`);
    return t.encode(t.fromObject(fields)).finish();
  };
  const decode = (name: string, data: Uint8Array, defaults: boolean) =>
    type(name).toObject(type(name).decode(data), { enums: String, defaults }) as MessageFields;

  let bindings: Array<{ event: string }> | undefined;
  // The host calls one binding per request, the one whose matcher accepted the tool (see
  // docs/hooks.md); the kit does no matching: it picks the event's only binding, or is told.
  const bindingFor = async (event: unknown): Promise<number> => {
    bindings ??= ((decode('PluginInfo', await callRaw('describe', new Uint8Array()), true).hooks ?? []) as Array<{ event: string }>);
    const candidates = bindings.flatMap((b, i) => (b.event === event ? [i] : []));
    if (candidates.length === 1) return candidates[0]!;
    throw new TypeError(
      candidates.length === 0
        ? `the plugin has no binding for ${String(event)}: a host would never call it`
        : `the plugin has ${candidates.length} bindings for ${String(event)} (hooks ${candidates.join(', ')}): say which with bindingIndex (the host picks by matcher; test the chain with loadPlugin and createHost)`,
    );
  };

  const hook = async (request: MessageFields): Promise<TestVerdict> => {
    const routed = request.bindingIndex === undefined ? { ...request, bindingIndex: await bindingFor(request.event) } : request;
    const o = decode('HookResponse', await callRaw('hook', encode('HookRequest', routed)), true);
    const decision = String(o.decision).replace(/^DECISION_/, '').toLowerCase() as DecisionName;
    return {
      decision,
      reason: String(o.reason),
      updatedInputJson: String(o.updatedInputJson),
      additionalContext: String(o.additionalContext),
      systemMessage: String(o.systemMessage),
      updatedOutputJson: String(o.updatedOutputJson),
      updatedPermissionsJson: String(o.updatedPermissionsJson),
    };
  };

  return {
    progress,
    logs,
    callRaw,
    hook,
    describe: async () => decode('PluginInfo', await callRaw('describe', new Uint8Array()), false),
    preToolUse: (toolName, input, context = {}, binding) =>
      hook({
        event: 'HOOK_EVENT_PRE_TOOL_USE',
        context,
        ...(binding === undefined ? {} : { bindingIndex: binding }),
        toolUse: { toolName, toolInputJson: JSON.stringify(input) },
      }),
    tool: async (name, input, context = {}) => {
      const o = decode('ToolResponse', await callRaw('tool', encode('ToolRequest', { name, inputJson: JSON.stringify(input), context })), true);
      return { content: String(o.content), isError: Boolean(o.isError) };
    },
    close: () => plugin.close(),
  };
}
