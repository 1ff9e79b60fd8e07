/**
 * Compaction: the model summarises the conversation and the summary replaces
 * it. PreCompact may skip it (`stop`); PostCompact reports the sizes. Token
 * counts are estimates (characters / 4).
 */
import type { Emit } from '../events/types.js';
import { dispatch } from '../hooks/dispatch.js';
import type { Message } from '../models/types.js';
import { dispatchContext, hookCommon, type LoopConfig } from './config.js';
import { streamModelTurn } from './model-turn.js';

export const COMPACT_INSTRUCTION =
  'Summarise the conversation so far for yourself: the goal, what was done, the files and facts that matter, and what is left. Reply with the summary only.';

export type CompactResult =
  | { compacted: true; tokensBefore: number; tokensAfter: number }
  | { compacted: false; reason: string };

export const estimateTokens = (messages: readonly Message[]) =>
  Math.ceil(messages.reduce((n, m) => n + (m.role === 'assistant' ? JSON.stringify(m.content).length : m.content.length), 0) / 4);

export async function compactConversation(
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
  trigger: 'auto' | 'manual',
): Promise<CompactResult> {
  const ctx = dispatchContext(config, emit, signal);
  const common = hookCommon(config, 0);
  const tokensBefore = estimateTokens(config.messages);
  if (config.messages.length === 0) return { compacted: false, reason: 'the conversation is empty' };
  const pre = await dispatch(ctx, 'PreCompact', () => ({ ...common, hook_event_name: 'PreCompact', trigger, tokens_before: tokensBefore }));
  if (signal.aborted) return { compacted: false, reason: 'aborted' };
  if (pre.decision === 'stop') return { compacted: false, reason: pre.reason ?? `PreCompact hook "${pre.decidedBy?.hookName}" skipped it` };

  // The summary call's deltas are not part of the conversation's stream.
  const silent: Emit = () => {};
  const turn = await streamModelTurn(
    config.model,
    {
      ...(config.systemPrompt !== undefined ? { system: config.systemPrompt } : {}),
      messages: [...config.messages, { role: 'user', content: COMPACT_INSTRUCTION }],
      tools: [],
      signal,
    },
    silent,
  );
  if (turn.kind === 'aborted') return { compacted: false, reason: 'aborted' };
  if (turn.kind === 'error') {
    emit({ type: 'error', code: turn.error.code, message: `compaction failed: ${turn.error.message}` });
    return { compacted: false, reason: `the model failed: ${turn.error.message}` };
  }
  const summary = turn.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  config.messages.splice(0, config.messages.length, { role: 'user', content: `Summary of the conversation so far:\n${summary}` });
  const tokensAfter = estimateTokens(config.messages);
  await dispatch(ctx, 'PostCompact', () => ({ ...common, hook_event_name: 'PostCompact', trigger, tokens_before: tokensBefore, tokens_after: tokensAfter }));
  return { compacted: true, tokensBefore, tokensAfter };
}
