// The public API of wasmhooks, hand-picked and grouped as in DESIGN.md.
// Web-standard and light to import (test/package/barrel-clean.test.ts): the
// HTTP control plane is `wasmhooks/server`, the MCP server `wasmhooks/mcp`,
// the command line `wasmhooks/cli` (host/entries/).

// Errors: host mistakes are thrown as WasmhooksError; plugin failures are data (PluginFailure).
export { WasmhooksError, type WasmhooksErrorCode } from './errors.js';
export { PluginIdentityError, type IdentityField } from './plugins/identity.js';

// The agent: host, sessions, sub-agents, compaction.
export { createHost, type ClearOptions, type Host } from './host.js';
export type { HostOptions, SessionOptions } from './host-options.js';
export { Session, type CloseOptions, type PromptOptions, type StreamOptions } from './agent/session.js';
export { defaultCompactor, compactionCut, type CompactResult } from './agent/compact.js';
export type { AgentDefinition, Compactor, CompactRequest } from './agent/config.js';
export { AGENT_TOOL } from './agent/subagent.js';

// Hooks, tools, permissions.
export { HOOK_EVENT_NAMES, SESSION_END_REASONS } from './hooks/types.js';
export type * from './hooks/types.js';
export type * from './tools/types.js';
export { HOOK_EVENT_RULES, defaultFailurePolicy, type HookEventRule } from './hooks/decisions.js';
export { HookRegistry } from './hooks/registry.js';
export { jsHookHandlers } from './hooks/js.js';
export { readHookOutput } from './hooks/output.js';
export { parseToolMatcher, MAX_MATCHER_LENGTH, type ToolMatcher } from './hooks/matcher.js';
export { tool, type JsToolContext, type JsToolOptions, type JsToolReturn } from './tools/define.js';
export { ToolRegistry } from './tools/registry.js';
export type * from './permissions/types.js';
export type { PermissionUpdate, PermissionUpdateDestination, PermissionBehavior, PermissionRuleValue } from './permissions/updates.js';
export { createShellHook, shellHooks, type ShellHookSpec, type ShellHookOptions } from './shell/index.js';

// Events: one union, a non-blocking bus.
export type * from './events/types.js';
export { EventBus, DEFAULT_SUBSCRIBER_BUFFER, type Subscriber, type SubscribeOptions } from './events/bus.js';
export { eventGrammarViolations, type GrammarOptions, type GrammarRule, type GrammarViolation } from './events/grammar.js';

// Models: scripted (offline default), OpenAI-compatible, Anthropic, any AI SDK model.
export type * from './models/types.js';
export { scriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedTurn, type ScriptedReply, type ScriptedRule, type ScriptedToolCall } from './models/scripted.js';
export { openaiModel, type OpenAIModelOptions } from './models/openai.js';
export { anthropicModel, type AnthropicModelOptions } from './models/anthropic.js';
export { aiSdkModel, type AiSdkLanguageModel, type AiSdkModelOptions } from './models/ai-sdk.js';
export { resolveModel, parseModelSpec, type ModelSpec, type ResolveModelOptions } from './models/resolve.js';
export type { HttpModelOptions } from './models/options.js';
export type { RetryOptions } from './models/retry.js';

// Plugins: loading (sources, pins, grants), the WASM hook/tool adapter, the protocol.
export { loadPlugin, WasmPlugin, sha256, type PluginOptions, type PluginSource, type Grants } from './plugins/index.js';
export { generateSigningKey, signPlugin, verifyPluginSignature, parseSignature, SignatureError, type SignatureEnvelope, type SignatureFailure, type TrustedKeys, type PrivateKeyFile } from './plugins/signature.js';
export type { PluginPin } from './plugins/plugin.js';
export type { ExtismTool } from './plugins/extism-tools.js';
export { PROTOCOL_VERSION, type PluginInfo, type PluginBinding, type PluginToolSpec, type PluginGrants } from './protocol/codec.js';

// The sandbox: any wasm export under a deadline, fuel, a memory cap and an abort signal.
export type * from './sandbox/types.js';
export type { PluginFailure, FailureCode, Health } from './failure.js';
export { DEFAULT_LIMITS } from './sandbox/types.js';
export { createSandbox, hostMemoryBound, HOST_MEMORY_SLACK_BYTES } from './sandbox/index.js';
export type { WasiOptions, WasiGrant } from './sandbox/wasi/options.js';
export type { HostFunction, HostFunctions, HostCallContext, HostValue, HostValueType } from './sandbox/host-functions.js';
// Any wasm module (not only Extism plugins): the instrumenter, and a sandbox for caller-provided imports.
export { instrument, FUEL_EXPORT, REFUEL_MODULE, REFUEL_NAME, START_FUNCTION_EXPORT, type InstrumentOptions, type InstrumentResult } from './sandbox/instrument/index.js';
export { instrumentOffThread } from './sandbox/off-thread.js';
export { createRawSandbox, type RawSandbox, type RawSandboxOptions, type RawOutcome } from './sandbox/raw.js';

// MCP servers as tool sources (createHost's mcpServers; the client SDK loads at first connect).
// Serving our tools over MCP is `wasmhooks/mcp`.
export { mcpToolName, type McpServerConfig, type McpServersConfig } from './mcp/config.js';

// Configuration file.
export { loadConfig, parseConfig, materializeConfig, type ResolvedConfig, type ConfigParts, type MaterializeOptions, type WasmhooksConfigFile } from './config/index.js';

// Durable sessions: stores (memory, a data directory, Redis) and the event log.
export { openStore, type StoreSpec, type OpenedStore } from './store/open.js';
export type { SessionStore, EventLog, SessionRecord, StoredResult, StoredSessionOptions, Since, ReplicaMessage } from './store/types.js';
export { persistTranscript, type Transcript, type TranscriptSource } from './store/transcript.js';
