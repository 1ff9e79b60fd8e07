// The public API of wasmhooks. Each area adds its exports here, hand-picked.
export { WasmhooksError, type WasmhooksErrorCode } from './errors.js';
export type * from './sandbox/types.js';
export { DEFAULT_LIMITS } from './sandbox/types.js';
export type * from './models/types.js';
export { createShellHook, shellHooks, type ShellHookSpec, type ShellHookOptions } from './shell/index.js';
export { createSandbox } from './sandbox/index.js';
