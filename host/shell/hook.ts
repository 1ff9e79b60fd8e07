/**
 * The shell-hook adapter: a `ShellHookSpec` becomes a `HookHandler` of kind
 * `shell`, so the registry, the dispatcher and the events treat it like any
 * JS or WASM hook.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import type { HookHandler, HookInput, HookResult, HookRunContext } from '../hooks/types.js';
import type { PluginContribution } from '../tools/types.js';
import { defaultFailurePolicy } from '../hooks/decisions.js';
import { nextHookId } from '../hooks/js.js';
import { compileToolMatcher } from '../hooks/matcher.js';
import { shellResult } from './output.js';
import { runShell } from './run.js';
import { hookTimeoutMs } from '../hooks/timeout.js';
import { PROJECT_DIR_VAR, shellHookSpecSchema, type ShellHookSpec } from './spec.js';

export interface ShellHookOptions {
  /**
   * Working directory when the spec has no `cwd` (and the base of a relative one), and the hook's
   * `$CLAUDE_PROJECT_DIR`. Default: the process's working directory, and the session's cwd.
   */
  baseDir?: string;
}

function workingDir(base: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined) return base;
  // POSIX path resolution without node:path, so the main entry stays web-standard.
  return base === undefined || dir.startsWith('/') ? dir : decodeURIComponent(new URL(dir, `file://${base.endsWith('/') ? base : `${base}/`}`).pathname).replace(/(.)\/$/, '$1');
}

/**
 * A shell hook as a `HookHandler`. The hook input is written to the
 * command's stdin as JSON; see `./output.ts` for how exit codes and stdout
 * become decisions.
 *
 * @example
 * const guard = createShellHook({ event: 'PreToolUse', matcher: 'Bash', command: './no-rm.sh' });
 * const host = createHost({ plugins: [shellHooks([guard])] });
 */
export function createShellHook(spec: ShellHookSpec, options: ShellHookOptions = {}): HookHandler {
  const parsed = shellHookSpecSchema().safeParse(spec);
  if (!parsed.success) {
    throw new WasmhooksError('INVALID_OPTIONS', `invalid shell hook: ${z.prettifyError(parsed.error)}`);
  }
  const s = parsed.data;
  const label = `shell hook "${s.name ?? s.command}"`;
  const timeoutMs = hookTimeoutMs(s.timeout, s.timeoutMs);
  const cwd = workingDir(options.baseDir, s.cwd);
  const matcher = compileToolMatcher(s.matcher, label);
  const run = async (input: HookInput, ctx: HookRunContext): Promise<HookResult> => {
    const outcome = await runShell(s.command, {
      stdin: JSON.stringify(input),
      timeoutMs,
      signal: ctx.signal,
      ...(cwd ? { cwd } : {}),
      // Ours over an outer one (a host run from inside Claude Code); the spec's own env over ours.
      env: { ...globalThis.process?.env, [PROJECT_DIR_VAR]: options.baseDir ?? input.cwd, ...s.env, WASMHOOKS_HOOK_EVENT: input.hook_event_name },
    });
    return shellResult(outcome, input.hook_event_name, label, 'tool_name' in input ? input.tool_name : undefined);
  };
  return {
    id: nextHookId('shell'),
    name: s.name ?? `shell:${s.command.length > 40 ? `${s.command.slice(0, 39)}…` : s.command}`,
    kind: 'shell',
    event: s.event,
    ...(matcher ? { matcher } : {}),
    failurePolicy: s.failurePolicy ?? defaultFailurePolicy(s.event),
    timeoutMs,
    run,
  };
}

/**
 * Groups shell hooks as a plugin contribution, the shape `createHost`'s
 * `plugins` option takes.
 *
 * @example
 * createHost({ plugins: [shellHooks([{ event: 'Stop', command: 'npm test --silent' }])] })
 */
export function shellHooks(hooks: ReadonlyArray<HookHandler | ShellHookSpec>, options: ShellHookOptions = {}): PluginContribution {
  const handlers = hooks.map((h) => ('run' in h ? h : createShellHook(h, options)));
  return { name: 'shell', hooks: () => handlers, tools: () => [] };
}
