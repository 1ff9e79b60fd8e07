/**
 * Wraps JS hook callbacks into `HookHandler`s: a throw becomes a TRAP
 * failure, an output that is not a HookOutput becomes BAD_OUTPUT, an abort
 * (timeout or session abort) becomes TIMEOUT or ABORTED.
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { defaultFailurePolicy } from './decisions.js';
import { compileToolMatcher } from './matcher.js';
import { readHookOutput } from './output.js';
import type {
  FailurePolicy,
  HookCallback,
  HookCallbackMatcher,
  HookEventName,
  HookHandler,
  HookResult,
} from './types.js';
import { HOOK_EVENT_NAMES } from './types.js';
import { BOTH_TIMEOUTS, hookTimeoutMs } from './timeout.js';

/** Throws UNKNOWN_HOOK_EVENT for a name that is not a hook event. */
export function assertHookEvent(event: string): asserts event is HookEventName {
  if (!(HOOK_EVENT_NAMES as readonly string[]).includes(event)) {
    throw new WasmhooksError(
      'UNKNOWN_HOOK_EVENT',
      `"${event}" is not a hook event; expected one of: ${HOOK_EVENT_NAMES.join(', ')}`,
    );
  }
}

let counter = 0;
/** A unique hook id, for every adapter that makes handlers without one of their own (JS, shell). */
export function nextHookId(prefix: string): string {
  return `${prefix}-${++counter}`;
}

/**
 * Runs one callback; never throws. A timeout or abort is reported by the
 * dispatcher, which races the call; `options.signal` stays lazy here (it is
 * only created if the hook reads it).
 */
async function runCallback(event: HookEventName, cb: HookCallback, ...args: Parameters<HookCallback>): Promise<HookResult> {
  try {
    const raw: unknown = await cb(...args);
    const input = args[0];
    const read = readHookOutput(event, raw ?? {}, 'tool_name' in input ? input.tool_name : undefined);
    if (!read.ok) return { ok: false, failure: { code: 'BAD_OUTPUT', message: `hook returned an invalid output: ${read.message}` } };
    return { ok: true, output: read.output };
  } catch (e) {
    return { ok: false, failure: { code: 'TRAP', message: `hook threw: ${messageOf(e)}` } };
  }
}

/**
 * One handler per callback of the matcher group.
 *
 * @example
 * jsHookHandlers('PreToolUse', { matcher: 'Bash', hooks: [async () => ({ decision: 'deny' })] })
 */
export function jsHookHandlers(event: HookEventName, group: HookCallbackMatcher): HookHandler[] {
  assertHookEvent(event);
  // Each field read once: what is checked is what runs (a getter may answer differently on a second read).
  const { hooks: given, matcher: pattern, timeout, timeoutMs: givenMs, failurePolicy: givenPolicy, name: groupName } = group;
  const hooks = Array.isArray(given) ? [...(given as unknown[])] : undefined;
  if (!hooks || hooks.some((h) => typeof h !== 'function')) {
    throw new WasmhooksError('INVALID_OPTIONS', `hooks.${event}: "hooks" must be an array of functions`);
  }
  const matcher = compileToolMatcher(pattern, `hooks.${event}`);
  if (timeout !== undefined && givenMs !== undefined) {
    throw new WasmhooksError('INVALID_OPTIONS', `hooks.${event}: ${BOTH_TIMEOUTS}`);
  }
  const deadline = timeout ?? givenMs;
  if (deadline !== undefined && !(typeof deadline === 'number' && deadline > 0)) {
    throw new WasmhooksError('INVALID_OPTIONS', `hooks.${event}: ${timeout !== undefined ? 'timeout' : 'timeoutMs'} must be a number > 0, got ${typeof deadline === 'string' ? JSON.stringify(deadline) : String(deadline)}`);
  }
  const timeoutMs = hookTimeoutMs(timeout, givenMs);
  const failurePolicy: FailurePolicy = givenPolicy ?? defaultFailurePolicy(event);
  return (hooks as HookCallback[]).map((cb, i) => {
    const id = nextHookId('js');
    const name = `${groupName ?? (cb.name || 'js')}#${i}`;
    const handler: HookHandler = {
      id,
      name,
      kind: 'js',
      event,
      failurePolicy,
      timeoutMs,
      ...(matcher ? { matcher } : {}),
      run: (input, ctx) =>
        runCallback(event, cb, input, 'tool_use_id' in input ? input.tool_use_id : undefined, ctx),
    };
    return handler;
  });
}
