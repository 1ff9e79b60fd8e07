/**
 * One batch of tool calls, each in three steps: prepare (PreToolUse hooks,
 * then permission) → execute (validate, run) → finalize (PostToolUse or
 * PostToolUseFailure, tool.output). PreToolBatch runs first, PostToolBatch
 * once after the last call settles. Every call ends with a tool result in the
 * conversation, denied ones too, in the model's order.
 *
 * Consecutive calls of concurrency-safe tools (read-only ones) form a group
 * whose executions overlap (at most `maxParallelTools` at once); every other
 * call is a group of one. Within a group, prepare runs call by call in order,
 * then the executions, then finalize call by call in order: hooks, permission
 * questions and `tool.output` keep the model's order whatever finishes first;
 * only `tool.progress` events of overlapping calls interleave.
 */
import type { DenialSource, Emit, EmittedEvent, StoppedBy } from '../events/types.js';
import { dispatch, stoppedBy, type DispatchContext } from '../hooks/dispatch.js';
import type { HookToolCall } from '../hooks/types.js';
import { resolvePermission } from '../permissions/resolve.js';
import { PermissionQuestion, type BatchScope } from './permission-question.js';
import { applyGrants } from './permission-answer.js';
import { normalizeToolInput, type LoopConfig } from './config.js';
import { hookCommon, hookInput, toolCallInput } from './hook-input.js';
import type { ToolCallRequest } from './model-turn.js';
import { isRecord } from '../json.js';
import { sameJson } from '../same-json.js';
import { recheckInput } from './recheck.js';
import { ConversationRoom } from './conversation-cap.js';
import { runTool, type ToolCallRun } from './tool-run.js';
import { escapeHookText } from './hook-text.js';

export interface BatchResult {
  /** Set when a hook stopped the turn (PreToolBatch, PreToolUse or PostToolUse `stop`). */
  stoppedBy?: StoppedBy;
}

/** A batch no hook stopped (shared, read only). */
const NOT_STOPPED: BatchResult = Object.freeze({});

/** `ctx`: the loop's dispatch context for this prompt (the same config, emit and signal). */
export async function runToolBatch(config: LoopConfig, emit: Emit, signal: AbortSignal, calls: ToolCallRequest[], iteration: number, ctx: DispatchContext): Promise<BatchResult> {
  const b: BatchScope = { config, emit, signal, ctx, common: hookCommon(config, iteration) };
  const runs: ToolCallRun[] = calls.map((call) => ({ call, input: isRecord(call.input) ? normalizeToolInput(config, call.input) : undefined, durationMs: 0 }));

  const pre = await dispatch(b.ctx, 'PreToolBatch', () => hookInput(b.common, { hook_event_name: 'PreToolBatch', tool_calls: hookCalls(runs, false) }));
  config.pendingContext.push(...pre.additionalContext);
  if (signal.aborted || pre.decision === 'stop') {
    const stop = signal.aborted ? undefined : stoppedBy('PreToolBatch', pre);
    for (const r of runs) {
      if (stop) deny(b, r, pre.reason ?? 'a PreToolBatch hook stopped the turn', 'stopped', stop.hookName);
      else deny(b, r, 'aborted before the tool ran', 'aborted');
      pushResult(b, r);
    }
    return stop ? { stoppedBy: stop } : NOT_STOPPED;
  }

  let stop: StoppedBy | undefined;
  let stopAfterBatch: StoppedBy | undefined;
  const room = new ConversationRoom(config);
  for (const group of groups(config, runs)) {
    for (const r of group) {
      if (signal.aborted) deny(b, r, 'aborted before the tool ran', 'aborted');
      else if (stop) deny(b, r, `not run: ${stop.event} hook "${stop.hookName}" stopped the turn`, 'stopped', stop.hookName);
      else stop = await prepare(b, r);
    }
    const runnable = group.filter((r) => r.approved);
    await eachBounded(runnable, group.length > 1 ? config.maxParallelTools : 1, (r) => execute(b, r));
    for (const r of runnable) {
      const post = await finalize(b, r, room);
      if (post && !stopAfterBatch) stopAfterBatch = post;
    }
    for (const r of group) pushResult(b, r);
  }

  if (!signal.aborted) {
    const after = await dispatch(b.ctx, 'PostToolBatch', () => hookInput(b.common, { hook_event_name: 'PostToolBatch', tool_calls: hookCalls(runs, true) }));
    config.pendingContext.push(...after.additionalContext);
  }
  const result = stop ?? stopAfterBatch;
  return result ? { stoppedBy: result } : NOT_STOPPED;
}


/** The batch's calls as PreToolBatch and PostToolBatch hooks see them (PostToolBatch: with their results). */
function hookCalls(runs: readonly ToolCallRun[], withResults: boolean): HookToolCall[] {
  return runs.map((r) => ({
    tool_use_id: r.call.id,
    tool_name: r.call.name,
    tool_input: r.approved ?? r.input ?? {},
    ...(withResults && r.result ? { tool_response: r.result.content, is_error: r.result.isError } : {}),
  }));
}

/** Consecutive concurrency-safe calls share a group; any other call is a group of one. */
function groups(config: LoopConfig, runs: ToolCallRun[]): ToolCallRun[][] {
  const out: ToolCallRun[][] = [];
  let open: ToolCallRun[] | undefined;
  for (const r of runs) {
    const safe = r.input !== undefined && config.tools.get(r.call.name)?.handler.concurrencySafe === true;
    if (safe && open) open.push(r);
    else out.push((open = [r]));
    if (!safe) open = undefined;
  }
  return out;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  // Inline: under tsx (the bench's Node runner) a named closure also costs a `__name` call each time it is made.
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

function deny(b: BatchScope, r: ToolCallRun, reason: string, source: DenialSource, hookName?: string): void {
  const denied: Extract<EmittedEvent, { type: 'tool.denied' }> = { type: 'tool.denied', toolUseId: r.call.id, name: r.call.name, reason, source };
  if (hookName) denied.hookName = hookName;
  b.emit(denied);
  // The reason may be a hook's text: escaped for the model as hook context is (hook-text.ts).
  r.result = { content: escapeHookText(reason), isError: true };
}

function pushResult(b: BatchScope, r: ToolCallRun): void {
  const { content, isError } = r.result ?? { content: `${r.call.name} did not run`, isError: true };
  b.config.messages.push({ role: 'tool', toolUseId: r.call.id, toolName: r.call.name, content, isError });
}

/** PreToolUse, then the permission question. Sets `approved` or denies; returns a stop that ends the batch. */
async function prepare(b: BatchScope, r: ToolCallRun): Promise<StoppedBy | undefined> {
  const { config, signal, ctx, common } = b;
  const { call, input } = r;
  if (input === undefined) {
    // Not an object: nothing for a hook to judge; execute reports it to the model.
    r.approved = {};
    return undefined;
  }
  const pre = await dispatch(ctx, 'PreToolUse', () => toolCallInput(common, 'PreToolUse', call.name, call.id, input));
  config.pendingContext.push(...pre.additionalContext);
  const hookName = pre.decidedBy?.hookName;
  if (signal.aborted) return void deny(b, r, 'aborted before the tool ran', 'aborted');
  switch (pre.decision) {
    case 'deny':
      return void deny(b, r, pre.reason ?? `denied by hook "${hookName}"`, 'hook', hookName);
    case 'stop': {
      const stop = stoppedBy('PreToolUse', pre);
      deny(b, r, pre.reason ?? `hook "${hookName}" stopped the turn`, 'stopped', hookName);
      return stop;
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
  const judged = pre.updatedInput ?? input;
  const question = new PermissionQuestion(b, call, input, judged, pre.decision);
  const permission = await resolvePermission(config.permissions, question);
  if (permission.behavior === 'deny') {
    deny(b, r, permission.message, signal.aborted ? 'aborted' : permission.source, permission.hookName);
    // A PermissionRequest hook that stopped the turn (permission-answer.ts): the rest of the batch is `stopped`.
    return signal.aborted ? undefined : question.stop;
  }
  // Path-resolved by resolvePermission (the input its permission.resolved shows when rewritten).
  const approved = permission.input;
  // A guard judges the input that runs (host/agent/recheck.ts). Without a rewrite the
  // approver hands back the very object it was asked about: no comparison, no re-check.
  const unchanged = approved === judged || sameJson(approved, judged);
  if (pre.rewrittenAfterJudged === true || !unchanged) {
    // An approver who handed back the input it was shown has answered about this very input (a
    // PermissionRequest hook's rewrite before the app was asked included: the app saw it).
    const shown = permission.shown;
    const answeredAbout = shown !== undefined && (shown === approved || sameJson(normalizeToolInput(config, shown), approved));
    const refusal = await recheckInput(b, call, approved, permission.source, answeredAbout, pre.additionalContext);
    if (refusal) {
      deny(b, r, refusal.reason, refusal.source, refusal.hookName);
      return refusal.stop;
    }
  }
  // The answer decided a call that may run: only now does its grant persist (permission-answer.ts).
  if (!signal.aborted) applyGrants(config.permissions, permission.grants);
  r.approved = approved;
  return undefined;
}

async function execute(b: BatchScope, r: ToolCallRun): Promise<void> {
  const started = performance.now();
  r.outcome = await runTool(b, r);
  r.durationMs = performance.now() - started;
}

/** PostToolUse or PostToolUseFailure, then tool.output; returns a PostToolUse stop (it ends the turn after the batch). */
async function finalize(b: BatchScope, r: ToolCallRun, room: ConversationRoom): Promise<StoppedBy | undefined> {
  const { config, ctx, common, signal } = b;
  const outcome = r.outcome ?? { content: `${r.call.name} did not run`, isError: true };
  const { name, id } = r.call;
  const durationMs = Math.round(r.durationMs);
  // Dispatched after an abort too: a chain the abort cuts short (or finds already aborted) withholds
  // the output when a fail-closed hook of it (a redactor) did not run, and the conversation keeps
  // what tool.output shows (host/hooks/chain.ts `abort`).
  const post = outcome.isError
    ? await dispatch(ctx, 'PostToolUseFailure', () =>
        hookInput(common, {
          tool_name: name,
          tool_use_id: id,
          tool_input: r.approved ?? {},
          duration_ms: durationMs,
          hook_event_name: 'PostToolUseFailure',
          error: outcome.content,
          tool_response: outcome.content,
        }),
      )
    : await dispatch(ctx, 'PostToolUse', () =>
        hookInput(common, { tool_name: name, tool_use_id: id, tool_input: r.approved ?? {}, duration_ms: durationMs, hook_event_name: 'PostToolUse', tool_response: outcome.content }),
      );
  // Past the conversation's cap (conversation-cap.ts) the model gets a note in its place, as an error.
  const { content, dropped } = room.take(post.updatedOutput ?? outcome.content);
  const isError = outcome.isError || dropped;
  config.pendingContext.push(...post.additionalContext);
  const stop = !outcome.isError && post.decision === 'stop' && !signal.aborted ? stoppedBy('PostToolUse', post) : undefined;
  // tool.output carries what the model gets: after PostToolUse rewrites (a redactor's, say), never the raw text.
  b.emit({ type: 'tool.output', toolUseId: r.call.id, name: r.call.name, content, isError, durationMs: r.durationMs });
  r.result = { content, isError };
  return stop;
}
