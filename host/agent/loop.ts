/**
 * The agent loop for one prompt: a plain function of (config, emit, signal)
 * that returns the result and emits everything that happens. See DESIGN.md
 * "Data flow of one prompt". Never throws: an internal error becomes an
 * `error_during_execution` result.
 */
import { messageOf } from '../errors.js';
import type { AgentErrorCode, AgentResult, AgentResultSubtype, Emit } from '../events/types.js';
import { dispatch, stoppedBy } from '../hooks/dispatch.js';
import type { AssistantPart, ModelRequest, Usage } from '../models/types.js';
import { dispatchContext, flushContext, type LoopConfig } from './config.js';
import { hookCommon, hookInput } from './hook-input.js';
import { compactConversation, estimateTokens } from './compact.js';
import { overCap, promptPastCap } from './conversation-cap.js';
import { streamModelTurn, type ToolCallRequest } from './model-turn.js';
import { withAgentTool } from './subagent.js';
import { runToolBatch } from './tool-batch.js';
import { startSession } from './session-start.js';
import { hookFrames } from './hook-text.js';

const textOf = (parts: AssistantPart[]) =>
  parts.map((p) => (p.type === 'text' ? p.text : '')).join('');


/** Tokens the next model call will send: what the last call reported, plus estimates of what was added since. */
interface ContextSize {
  reported: number;
  /** `messages.length` at the last call; -1: no call yet (or compacted since), estimate everything. */
  atLength: number;
}

/** The context window auto-compaction works to, or undefined when the session does not compact by itself. */
function autoCompactWindow(config: LoopConfig): number | undefined {
  return config.autoCompact === false ? undefined : (config.model.contextWindow ?? config.compaction?.contextWindow);
}

function shouldCompact(config: LoopConfig, size: ContextSize): boolean {
  const window = autoCompactWindow(config);
  if (config.autoCompact === false || window === undefined) return false;
  // A provider that reports no usage (0) still gets the estimate.
  const estimate = estimateTokens(config.messages, config.systemPrompt);
  const tokens = size.atLength < 0 ? estimate : Math.max(estimate, size.reported + estimateTokens(config.messages.slice(size.atLength)));
  return tokens >= window * config.autoCompact;
}

/**
 * @example
 * const result = await runLoop(config, (e) => bus.publish(stamp(e)), controller.signal);
 */
export async function runLoop(outer: LoopConfig, emit: Emit, signal: AbortSignal): Promise<AgentResult> {
  const started = performance.now();
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  // Sub-agents still winding down after an abort; agent.end waits for them so it stays the last event.
  const children = new Set<Promise<unknown>>();
  const config = withAgentTool(outer, emit, children, runLoop);
  const ctx = dispatchContext(config, emit, signal);
  let turns = 0;
  /** Model calls made (a turn that ended before its model call, by an IterationStart stop or an abort, made none). */
  let calls = 0;
  let text = '';
  const size: ContextSize = { reported: 0, atLength: -1 };
  let stopBlocks = 0;

  const finish = async (subtype: AgentResultSubtype, extra: Partial<AgentResult> = {}): Promise<AgentResult> => {
    if (children.size > 0) await Promise.allSettled([...children]);
    const result: AgentResult = {
      subtype: signal.aborted ? 'aborted' : subtype,
      text,
      turns: calls,
      usage,
      durationMs: performance.now() - started,
      ...(signal.aborted ? {} : extra),
    };
    if (signal.aborted) config.setState('aborting');
    config.setState('idle');
    emit({ type: 'agent.end', result });
    return result;
  };
  const fail = async (code: AgentErrorCode, message: string, iteration: number, lastMessage = text) => {
    emit({ type: 'error', code, message });
    const common = hookCommon(config, iteration);
    await dispatch(ctx, 'StopFailure', () => hookInput(common, { hook_event_name: 'StopFailure', stop_hook_active: stopBlocks > 0, last_assistant_message: lastMessage, error: message }));
    await dispatch(ctx, 'Error', () => hookInput(common, { hook_event_name: 'Error', code, message }));
    return finish('error_during_execution', { error: { code, message } });
  };

  /** One automatic compaction (from `thinking`; the caller says what state follows). */
  const autoCompact = async () => {
    config.setState('compacting');
    const compacted = await compactConversation(config, emit, signal, 'auto');
    if (compacted.compacted) size.atLength = -1;
  };

  /**
   * Why the conversation is past its cap, if it is. A session that compacts by itself makes its room as
   * session.compact() would (the way out the error names) before it is refused: the cap (a bound on memory)
   * must not end a long session that auto-compaction would have kept going (maxMessages is often reached first).
   */
  const overCapAfterCompaction = async (incoming?: string): Promise<string | undefined> => {
    // A prompt too large for any conversation is refused as it is: compacting could not make it fit.
    const alone = incoming === undefined ? undefined : promptPastCap(config, incoming);
    if (alone) return alone;
    const full = overCap(config, incoming);
    if (!full || autoCompactWindow(config) === undefined) return full;
    config.setState('thinking');
    await autoCompact();
    config.setState('thinking');
    return signal.aborted ? undefined : overCap(config, incoming);
  };

  /** The calls a message streamed before it failed or was aborted: none runs, each is settled (docs/events.md). */
  const unrun = (calls: readonly ToolCallRequest[], source: 'aborted' | 'model-error', reason: string) => {
    for (const c of calls) emit({ type: 'tool.denied', toolUseId: c.id, name: c.name, reason, source });
  };

  /** An abort before the model call: the open turn ends, then the prompt. */
  const endTurn = (iteration: number) => {
    emit({ type: 'turn.end', iteration, stopReason: 'aborted', toolCalls: 0 });
    return finish('aborted');
  };

  emit({ type: 'agent.start', prompt: config.prompt, model: config.model.id, turn: config.turn });
  config.setState('thinking');
  try {
    if (config.sessionStart) await startSession(ctx, config, config.sessionStart);
    // A sub-agent's task is not a user prompt: it continues straight into the loop (no UserPromptSubmit).
    if (config.parentToolUseId === undefined) {
      const submit = await dispatch(ctx, 'UserPromptSubmit', () => hookInput(hookCommon(config, 0), { hook_event_name: 'UserPromptSubmit', prompt: config.prompt }));
      if (signal.aborted) return finish('aborted');
      if (submit.decision === 'deny' || submit.decision === 'stop') {
        // A refused prompt never enters the conversation.
        return finish('success', { stoppedBy: stoppedBy('UserPromptSubmit', submit) });
      }
      config.pendingContext.push(...submit.additionalContext);
    }
    // A full conversation refuses the prompt before it is added: refused prompts must not grow it (or the store) either.
    const full = await overCapAfterCompaction(config.prompt);
    if (signal.aborted) return finish('aborted');
    if (full) return await fail('CONVERSATION_TOO_LARGE', full, 0);
    config.messages.push({ role: 'user', content: config.prompt });

    for (;;) {
      if (signal.aborted) return finish('aborted');
      if (turns >= config.maxTurns) return finish('error_max_turns');
      // Before a turn starts: a conversation past its cap never reaches the model (or the store) again as it is.
      const full = await overCapAfterCompaction();
      if (signal.aborted) return finish('aborted');
      if (full) return await fail('CONVERSATION_TOO_LARGE', full, turns);
      const iteration = ++turns;
      config.setState('thinking');
      emit({ type: 'turn.start', iteration });
      const common = hookCommon(config, iteration);
      const start = await dispatch(ctx, 'IterationStart', () => hookInput(common, { hook_event_name: 'IterationStart' }));
      config.pendingContext.push(...start.additionalContext);
      // Every turn.start gets its turn.end, an aborted one too (docs/events.md).
      if (signal.aborted) return endTurn(iteration);
      if (start.decision === 'stop') {
        emit({ type: 'turn.end', iteration, stopReason: 'end_turn', toolCalls: 0 });
        return finish('success', { stoppedBy: stoppedBy('IterationStart', start) });
      }
      if (shouldCompact(config, size)) {
        await autoCompact();
        if (signal.aborted) return endTurn(iteration);
        config.setState('thinking');
      }
      flushContext(config);

      // A literal either way (no conditional spread: Node 20 builds one slowly, see hook-input.ts `hookInput`).
      const tools = config.tools.definitions();
      const request: ModelRequest =
        config.systemPrompt !== undefined
          ? { system: config.systemPrompt, messages: config.messages, tools, signal }
          : { messages: config.messages, tools, signal };
      calls++;
      const model = await streamModelTurn(config.model, request, emit, config.maxConversationChars, config.modelTimeoutMs);
      size.reported = model.usage.inputTokens;
      size.atLength = config.messages.length;
      usage.inputTokens += model.usage.inputTokens;
      usage.outputTokens += model.usage.outputTokens;
      if (model.kind === 'aborted' || signal.aborted) {
        unrun(model.toolCalls, 'aborted', 'aborted before the model finished its message');
        emit({ type: 'turn.end', iteration, stopReason: 'aborted', toolCalls: model.toolCalls.length });
        return finish('aborted');
      }
      if (model.kind === 'error') {
        unrun(model.toolCalls, 'model-error', `not run: the model's stream failed (${model.error.code})`);
        emit({ type: 'turn.end', iteration, stopReason: 'error', toolCalls: model.toolCalls.length });
        return await fail(model.error.code, model.error.message, iteration);
      }
      if (model.content.length > 0) config.messages.push({ role: 'assistant', content: model.content });
      const said = textOf(model.content);
      if (said) text = said;

      if (model.toolCalls.length === 0) {
        // Where a sub-agent would stop, its caller fires SubagentStop (and may send it back to work).
        if (config.parentToolUseId !== undefined) {
          emit({ type: 'turn.end', iteration, stopReason: model.stopReason, toolCalls: 0 });
          return finish('success');
        }
        const stop = await dispatch(ctx, 'Stop', () =>
          hookInput(common, {
            hook_event_name: 'Stop',
            stop_hook_active: stopBlocks > 0,
            last_assistant_message: said,
          }),
        );
        config.pendingContext.push(...stop.additionalContext);
        emit({ type: 'turn.end', iteration, stopReason: signal.aborted ? 'aborted' : model.stopReason, toolCalls: 0 });
        if (signal.aborted) return finish('aborted');
        if (stop.decision !== 'block') return finish('success');
        if (stopBlocks >= config.stopHookCap) {
          const message = `Stop hooks blocked ${stopBlocks} times in this prompt; ending the prompt (raise stopHookCap to allow more)`;
          return await fail('STOP_HOOK_CAP', message, iteration);
        }
        stopBlocks++;
        // The reason is a plugin's text: framed and escaped as its context is (hook-text.ts).
        config.messages.push({ role: 'user', content: hookFrames([{ from: stop.decidedBy?.hookName ?? 'a Stop hook', text: stop.reason ?? 'keep going' }], 'Stop') });
        continue;
      }

      config.setState('executing');
      const batch = await runToolBatch(config, emit, signal, model.toolCalls, iteration, ctx);
      emit({ type: 'turn.end', iteration, stopReason: signal.aborted ? 'aborted' : model.stopReason, toolCalls: model.toolCalls.length });
      if (signal.aborted) return finish('aborted');
      if (batch.stoppedBy) return finish('success', { stoppedBy: batch.stoppedBy });
    }
  } catch (e) {
    return await fail('INTERNAL', `internal error in the agent loop: ${messageOf(e)}`, turns).catch(() =>
      finish('error_during_execution', { error: { code: 'INTERNAL', message: messageOf(e) } }),
    );
  }
}
