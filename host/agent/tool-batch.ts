/**
 * One batch of tool calls, run one after another in the model's order, each
 * in three steps: prepare (PreToolUse hooks, then permission) → execute
 * (validate, run, tool.output) → finalize (PostToolUse or PostToolUseFailure).
 * PreToolBatch runs first, PostToolBatch once after the last call settles.
 * Every call ends with a tool result in the conversation, denied ones too.
 */
import { messageOf } from '../errors.js';
import type { DenialSource, Emit, StoppedBy } from '../events/types.js';
import { dispatch, stoppedBy } from '../hooks/dispatch.js';
import type { HookToolCall, ToolOutcome } from '../hooks/types.js';
import { resolvePermission } from '../permissions/resolve.js';
import { dispatchContext, hookCommon, type LoopConfig } from './config.js';
import type { ToolCallRequest } from './model-turn.js';
import { resolvePathFields } from './paths.js';

export interface BatchResult {
  /** Set when a hook stopped the turn (PreToolBatch, PreToolUse or PostToolUse `stop`). */
  stoppedBy?: StoppedBy;
}

type Prepared =
  | { kind: 'run'; input: Record<string, unknown> }
  | { kind: 'denied'; reason: string; source: DenialSource; hookName?: string; stop?: StoppedBy };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);


export async function runToolBatch(
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
  calls: ToolCallRequest[],
  iteration: number,
): Promise<BatchResult> {
  const ctx = dispatchContext(config, emit, signal);
  const common = hookCommon(config, iteration);
  const pending = config.pendingContext;
  const inputs = calls.map((c) => (isObject(c.input) ? resolvePathFields(c.input, config.cwd) : {}));
  const batch: HookToolCall[] = calls.map((c, i) => ({ tool_use_id: c.id, tool_name: c.name, tool_input: inputs[i] ?? {} }));

  const deny = (call: ToolCallRequest, reason: string, source: DenialSource, hookName?: string) => {
    emit({ type: 'tool.denied', toolUseId: call.id, name: call.name, reason, source, ...(hookName ? { hookName } : {}) });
    config.messages.push({ role: 'tool', toolUseId: call.id, toolName: call.name, content: reason, isError: true });
  };

  const pre = await dispatch(ctx, 'PreToolBatch', () => ({ ...common, hook_event_name: 'PreToolBatch', tool_calls: batch }));
  pending.push(...pre.additionalContext);
  if (signal.aborted) {
    for (const call of calls) deny(call, 'aborted before the tool ran', 'aborted');
    return {};
  }
  if (pre.decision === 'stop') {
    const stop = stoppedBy('PreToolBatch', pre);
    for (const call of calls) deny(call, pre.reason ?? 'a PreToolBatch hook stopped the turn', 'stopped', stop.hookName);
    return { stoppedBy: stop };
  }

  let stop: StoppedBy | undefined;
  let stopAfterBatch: StoppedBy | undefined;
  for (const [i, call] of calls.entries()) {
    if (signal.aborted) {
      deny(call, 'aborted before the tool ran', 'aborted');
      continue;
    }
    if (stop) {
      deny(call, `not run: ${stop.event} hook "${stop.hookName}" stopped the turn`, 'stopped', stop.hookName);
      continue;
    }
    const prepared = isObject(call.input)
      ? await prepare(config, ctx, emit, signal, call, inputs[i] ?? {}, common)
      : ({ kind: 'run', input: {} } as const);
    if (prepared.kind === 'denied') {
      if (prepared.stop) stop = prepared.stop;
      deny(call, prepared.reason, signal.aborted ? 'aborted' : prepared.source, prepared.hookName);
      continue;
    }
    // PostToolBatch sees what actually ran (after rewrites).
    batch[i] = { ...(batch[i] as HookToolCall), tool_input: prepared.input };
    const started = performance.now();
    const outcome = isObject(call.input)
      ? await execute(config, emit, signal, call, prepared.input, common)
      : { content: `the input of ${call.name} must be a JSON object`, isError: true };
    const durationMs = performance.now() - started;
    const post = await finalize(ctx, call, prepared.input, outcome, common, signal);
    // tool.output carries what the model gets: after PostToolUse rewrites (a redactor's, say), never the raw text.
    emit({ type: 'tool.output', toolUseId: call.id, name: call.name, content: post.content, isError: outcome.isError, durationMs });
    pending.push(...post.additionalContext);
    config.messages.push({ role: 'tool', toolUseId: call.id, toolName: call.name, content: post.content, isError: outcome.isError });
    if (post.stop && !stopAfterBatch) stopAfterBatch = post.stop;
  }

  if (!signal.aborted) {
    const after = await dispatch(ctx, 'PostToolBatch', () => ({ ...common, hook_event_name: 'PostToolBatch', tool_calls: batch }));
    pending.push(...after.additionalContext);
  }
  const result = stop ?? stopAfterBatch;
  return result ? { stoppedBy: result } : {};
}

async function prepare(
  config: LoopConfig,
  ctx: ReturnType<typeof dispatchContext>,
  emit: Emit,
  signal: AbortSignal,
  call: ToolCallRequest,
  input: Record<string, unknown>,
  common: ReturnType<typeof hookCommon>,
): Promise<Prepared> {
  const tool = { tool_name: call.name, tool_use_id: call.id };
  const pre = await dispatch(ctx, 'PreToolUse', () => ({ ...common, ...tool, hook_event_name: 'PreToolUse', tool_input: input }));
  config.pendingContext.push(...pre.additionalContext);
  const hookName = pre.decidedBy?.hookName;
  if (signal.aborted) return { kind: 'denied', reason: 'aborted before the tool ran', source: 'aborted' };
  switch (pre.decision) {
    case 'deny':
      return { kind: 'denied', reason: pre.reason ?? `denied by hook "${hookName}"`, source: 'hook', ...(hookName ? { hookName } : {}) };
    case 'stop': {
      const stop = stoppedBy('PreToolUse', pre);
      return { kind: 'denied', reason: pre.reason ?? `hook "${hookName}" stopped the turn`, source: 'stopped', stop, ...(hookName ? { hookName } : {}) };
    }
    case 'allow':
    case 'ask':
    case 'continue':
      break;
    case 'block':
      throw new Error('internal: block is not legal for PreToolUse');
    default: {
      const never: never = pre.decision;
      throw new Error(`internal: unknown decision ${String(never)}`);
    }
  }
  const permission = await resolvePermission(config.permissions, {
    toolName: call.name,
    toolUseId: call.id,
    input: pre.updatedInput ?? input,
    hookDecision: pre.decision,
    ...(config.agentId !== undefined ? { agentId: config.agentId } : {}),
    signal,
    emit,
    runHooks: (toolInput) => dispatch(ctx, 'PermissionRequest', () => ({ ...common, ...tool, hook_event_name: 'PermissionRequest', tool_input: toolInput })),
    notify: async (message) => {
      const n = await dispatch(ctx, 'Notification', () => ({ ...common, hook_event_name: 'Notification', message, level: 'info' }));
      config.pendingContext.push(...n.additionalContext);
    },
  });
  if (permission.behavior === 'deny') {
    return { kind: 'denied', reason: permission.message, source: permission.source, ...(permission.hookName ? { hookName: permission.hookName } : {}) };
  }
  return { kind: 'run', input: resolvePathFields(permission.input, config.cwd) };
}

async function execute(
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
  call: ToolCallRequest,
  input: Record<string, unknown>,
  common: ReturnType<typeof hookCommon>,
): Promise<ToolOutcome> {
  const tool = config.tools.get(call.name);
  if (!tool) return { content: `no tool named "${call.name}" is available`, isError: true };
  const checked = tool.validate(input);
  if (!checked.ok) return { content: `invalid input for ${call.name}: ${checked.message}`, isError: true };

  let onAbort = () => {};
  const aborted = new Promise<ToolOutcome>((resolve) => {
    onAbort = () => resolve({ content: `${call.name} was aborted`, isError: true });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const running = Promise.resolve().then(() =>
      tool.handler.run(checked.value, {
        signal,
        toolUseId: call.id,
        context: common,
        onProgress: (progress) => {
          if (!signal.aborted) emit({ type: 'tool.progress', toolUseId: call.id, name: call.name, progress: String(progress) });
        },
      }),
    );
    const out = await Promise.race([running, aborted]);
    if (typeof out?.content !== 'string') {
      return { content: `tool ${call.name} returned no text content`, isError: true };
    }
    return { content: out.content, isError: out.isError === true };
  } catch (e) {
    return { content: `tool ${call.name} failed: ${messageOf(e)}`, isError: true };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function finalize(
  ctx: ReturnType<typeof dispatchContext>,
  call: ToolCallRequest,
  input: Record<string, unknown>,
  outcome: ToolOutcome,
  common: ReturnType<typeof hookCommon>,
  signal: AbortSignal,
): Promise<{ content: string; additionalContext: readonly string[]; stop?: StoppedBy }> {
  const tool = { tool_name: call.name, tool_use_id: call.id, tool_input: input };
  if (signal.aborted) return { content: outcome.content, additionalContext: [] };
  if (outcome.isError) {
    const out = await dispatch(ctx, 'PostToolUseFailure', () => ({
      ...common,
      ...tool,
      hook_event_name: 'PostToolUseFailure',
      error: outcome.content,
      tool_response: outcome.content,
    }));
    return { content: out.updatedOutput ?? outcome.content, additionalContext: out.additionalContext };
  }
  const out = await dispatch(ctx, 'PostToolUse', () => ({ ...common, ...tool, hook_event_name: 'PostToolUse', tool_response: outcome.content }));
  return {
    content: out.updatedOutput ?? outcome.content,
    additionalContext: out.additionalContext,
    ...(out.decision === 'stop' ? { stop: stoppedBy('PostToolUse', out) } : {}),
  };
}
