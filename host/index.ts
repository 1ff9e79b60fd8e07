// The public API of wasmhooks. Each area adds its exports here, hand-picked.
export { WasmhooksError, type WasmhooksErrorCode } from './errors.js';
export type * from './sandbox/types.js';
export { DEFAULT_LIMITS } from './sandbox/types.js';
export type * from './models/types.js';
export { createShellHook, shellHooks, type ShellHookSpec, type ShellHookOptions } from './shell/index.js';
export { createSandbox } from './sandbox/index.js';
export { openaiModel, type OpenAIModelOptions } from './models/openai.js';
export { anthropicModel, type AnthropicModelOptions } from './models/anthropic.js';
export { resolveModel, parseModelSpec, type ModelSpec, type ResolveModelOptions } from './models/resolve.js';
export type { HttpModelOptions } from './models/options.js';
export type { RetryOptions } from './models/retry.js';
export { loadConfig, parseConfig, materializeConfig, type ResolvedConfig, type ConfigParts, type WasmhooksConfigFile } from './config/index.js';
// Agent loop: host, sessions, hooks, tools, events, permissions, scripted model.
export { createHost, type Host, type HostOptions, type SessionOptions } from './host.js';
export { Session, type PromptOptions, type StreamOptions } from './agent/session.js';
export type { CompactResult } from './agent/compact.js';
export { defaultCompactor, compactionCut } from './agent/compact.js';
export type { AgentDefinition, Compactor, CompactRequest } from './agent/config.js';
export { AGENT_TOOL } from './agent/subagent.js';
export { scriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedTurn, type ScriptedReply, type ScriptedRule, type ScriptedToolCall } from './models/scripted.js';
export { tool, type JsToolContext, type JsToolReturn } from './tools/define.js';
export { ToolRegistry } from './tools/registry.js';
export { HookRegistry } from './hooks/registry.js';
export { jsHookHandlers, hookOutputSchema } from './hooks/js.js';
export { HOOK_EVENT_RULES, defaultFailurePolicy, type HookEventRule } from './hooks/decisions.js';
export { HOOK_EVENT_NAMES } from './hooks/types.js';
export type * from './hooks/types.js';
export type * from './events/types.js';
export { EventBus, DEFAULT_SUBSCRIBER_BUFFER, type Subscriber, type SubscribeOptions } from './events/bus.js';
export type * from './permissions/types.js';
// Plugins: loading (sources, pins, grants), the WASM hook/tool adapter and the protocol codec.
export { loadPlugin, WasmPlugin, sha256, type PluginOptions, type PluginSource, type Grants } from './plugins/index.js';
export { PROTOCOL_VERSION, type PluginInfo, type PluginBinding, type PluginToolSpec, type PluginGrants } from './protocol/codec.js';
export { aiSdkModel, type AiSdkLanguageModel, type AiSdkModelOptions } from './models/ai-sdk.js';
// HTTP control plane: the hono app, SSE with replay, control requests; the per-runtime serve adapter.
export * from './server/index.js';
export { serve, runtimeName, type FetchHandler, type ServeOptions, type Served, type RuntimeName } from './runtime/serve.js';
