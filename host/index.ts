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
