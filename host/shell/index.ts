export { createShellHook, shellHooks, type ShellHookOptions } from './hook.js';
export { shellHookSpecSchema, DEFAULT_SHELL_TIMEOUT_MS, type ShellHookSpec } from './spec.js';
export { runShell, type ShellOutcome, type ShellRunOptions } from './run.js';
export { EXIT_DENY, EXIT_STOP } from './output.js';
