/**
 * Wraps JS hook callbacks into `HookHandler`s: a throw becomes a TRAP
 * failure, an output that is not a HookOutput becomes BAD_OUTPUT, an abort
 * (timeout or session abort) becomes TIMEOUT or ABORTED.
 */
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';
import { HOOK_EVENT_RULES } from './decisions.js';
import type {
  FailurePolicy,
  HookCallback,
  HookCallbackMatcher,
  HookEventName,
  HookHandler,
  HookOutput,
  HookResult,
} from './types.js';
import { HOOK_EVENT_NAMES } from './types.js';

export const DEFAULT_JS_HOOK_TIMEOUT_MS = 60_000;

/** Validates what a JS hook (or any JSON source) returned. Unknown keys are ignored. */
export const hookOutputSchema = z.object({
  decision: z.enum(['continue', 'allow', 'deny', 'ask', 'stop', 'block']).optional(),
  reason: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  updatedOutput: z.string().optional(),
  additionalContext: z.string().optional(),
  systemMessage: z.string().optional(),
  /** Claude Agent SDK compatibility: `continue: false` means stop (see `fromClaudeContinue`). */
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
});

type RawOutput = z.output<typeof hookOutputSchema>;

/**
 * Maps the Claude-style `{ continue: false, stopReason }` onto our one
 * decision union: `stop` where the event allows it, else `deny` where that is
 * legal; on Stop it means "let the agent stop" (`continue`). On observe-only
 * events it stays `stop`, which the dispatcher reports as a violation.
 */
function normalize(event: HookEventName, raw: RawOutput): HookOutput {
  const { continue: cont, stopReason, ...rest } = raw;
  const out = stripUndefined(rest);
  if (cont !== false) return out;
  const legal = HOOK_EVENT_RULES[event].decisions;
  out.decision = event === 'Stop' ? 'continue' : legal.includes('stop') ? 'stop' : legal.includes('deny') ? 'deny' : 'stop';
  if (stopReason !== undefined) out.reason = stopReason;
  return out;
}

/** Throws UNKNOWN_HOOK_EVENT for a name that is not an event, or one the host never fires. */
export function assertEmittedEvent(event: string): asserts event is HookEventName {
  if (!(HOOK_EVENT_NAMES as readonly string[]).includes(event)) {
    throw new WasmhooksError(
      'UNKNOWN_HOOK_EVENT',
      `"${event}" is not a hook event; expected one of: ${HOOK_EVENT_NAMES.join(', ')}`,
    );
  }
  if (!HOOK_EVENT_RULES[event as HookEventName].emitted) {
    throw new WasmhooksError(
      'UNKNOWN_HOOK_EVENT',
      `this host never fires ${event} (not implemented yet), so a hook for it would never run; remove it`,
    );
  }
}

/** Compiles a matcher to a RegExp anchored on the whole tool name. */
export function compileMatcher(matcher: string | RegExp | undefined): RegExp | undefined {
  if (matcher === undefined || matcher === '' || matcher === '*') return undefined;
  const source = typeof matcher === 'string' ? matcher : matcher.source;
  try {
    return new RegExp(`^(?:${source})$`, typeof matcher === 'string' ? '' : matcher.flags.replace('g', ''));
  } catch (e) {
    throw new WasmhooksError('INVALID_OPTIONS', `hook matcher ${JSON.stringify(source)} is not a valid regex: ${messageOf(e)}`);
  }
}

let counter = 0;
/** A unique hook id. */
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
    const parsed = hookOutputSchema.safeParse(raw ?? {});
    if (!parsed.success) {
      return { ok: false, failure: { code: 'BAD_OUTPUT', message: `hook returned an invalid output: ${z.prettifyError(parsed.error)}` } };
    }
    return { ok: true, output: normalize(event, parsed.data) };
  } catch (e) {
    return { ok: false, failure: { code: 'TRAP', message: `hook threw: ${messageOf(e)}` } };
  }
}

function stripUndefined(o: Omit<RawOutput, 'continue' | 'stopReason'>): HookOutput {
  const out: HookOutput = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/**
 * One handler per callback of the matcher group.
 *
 * @example
 * jsHookHandlers('PreToolUse', { matcher: 'Bash', hooks: [async () => ({ decision: 'deny' })] })
 */
export function jsHookHandlers(event: HookEventName, group: HookCallbackMatcher): HookHandler[] {
  assertEmittedEvent(event);
  if (!Array.isArray(group.hooks) || group.hooks.some((h) => typeof h !== 'function')) {
    throw new WasmhooksError('INVALID_OPTIONS', `hooks.${event}: "hooks" must be an array of functions`);
  }
  const matcher = compileMatcher(group.matcher);
  if (group.timeout !== undefined && group.timeoutMs !== undefined) {
    throw new WasmhooksError('INVALID_OPTIONS', `hooks.${event}: give timeoutMs (milliseconds) or timeout (seconds, Claude style), not both`);
  }
  const timeoutMs = group.timeout !== undefined ? group.timeout * 1000 : (group.timeoutMs ?? DEFAULT_JS_HOOK_TIMEOUT_MS);
  if (!(timeoutMs > 0)) throw new WasmhooksError('INVALID_OPTIONS', `hooks.${event}: ${group.timeout !== undefined ? 'timeout' : 'timeoutMs'} must be > 0`);
  const failurePolicy: FailurePolicy = group.failurePolicy ?? HOOK_EVENT_RULES[event].defaultPolicy;
  return group.hooks.map((cb, i) => {
    const id = nextHookId('js');
    const name = `${group.name ?? (cb.name || 'js')}#${i}`;
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
