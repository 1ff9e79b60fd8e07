// Shared bits of the first-party plugin tests: where the built plugins are
// (built on demand when missing) and hook inputs with the common fields filled.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLANG_INSTALL_HINT } from '../../host/cli/clang.js';
import type { HookCommon, HookInput } from '../../host/index.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The path of `plugins/<name>/build/<name>.wasm`, building it first if it is
 * missing (AssemblyScript here; C plugins, `plugins/<name>/src/*.c`, are built
 * by the vitest global setup and fail here saying what to install).
 */
export function builtPlugin(name: string): string {
  const path = fileURLToPath(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url));
  if (existsSync(path)) return path;
  if (existsSync(fileURLToPath(new URL(`../../plugins/${name}/src`, import.meta.url)))) {
    throw new Error(`plugins/${name} is a C plugin and its build is missing: npm run build:c (needs clang and lld; ${CLANG_INSTALL_HINT})`);
  }
  execFileSync(process.execPath, ['scripts/build-plugins.mjs', name], { cwd: repo, stdio: 'inherit' });
  return path;
}

export const common = (over: Partial<HookCommon> = {}): HookCommon => ({
  session_id: 's1',
  cwd: '/work/app',
  turn: 1,
  iteration: 1,
  permission_mode: 'default',
  ...over,
});

export const preToolUse = (tool_name: string, tool_input: Record<string, unknown>, over: Partial<HookCommon> = {}): HookInput => ({
  ...common(over),
  hook_event_name: 'PreToolUse',
  tool_name,
  tool_input,
  tool_use_id: 'toolu_1',
});

export const postToolUse = (
  tool_name: string,
  tool_input: Record<string, unknown>,
  tool_response: string,
  over: Partial<HookCommon> = {},
): HookInput => ({
  ...common(over),
  hook_event_name: 'PostToolUse',
  tool_name,
  tool_input,
  tool_response,
  tool_use_id: 'toolu_1',
});
