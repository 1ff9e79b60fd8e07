export { createShellHook, shellHooks, type ShellHookOptions } from './hook.js';
export type { ShellHookSpec } from './spec.js';
export type { ShellOutcome } from './run.js';
