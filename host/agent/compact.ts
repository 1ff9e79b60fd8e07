/**
 * Compaction: older turns are replaced by a model-written summary; the system
 * prompt (sent apart), the latest turns and every unresolved tool call stay.
 * PreCompact may skip it (`stop`/`deny`), PostCompact and a `context.compacted`
 * event report the sizes. Token counts are estimates (characters / 4). The
 * summariser is pluggable (`compactor`).
 */
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';
import type { Emit } from '../events/types.js';
import { lazy } from '../lazy.js';
import { dispatch, type DispatchContext } from '../hooks/dispatch.js';
import type { Message } from '../models/types.js';
import { dispatchContext, type CompactRequest, type Compactor, type LoopConfig } from './config.js';
import { hookCommon, hookInput } from './hook-input.js';
import { streamModelTurn } from './model-turn.js';
import { startSession } from './session-start.js';
import { compacted } from './conversation-cap.js';

export const COMPACT_INSTRUCTION =
  'Summarise the conversation so far for yourself: the goal, what was done, the files and facts that matter, and what is left. Reply with the summary only.';
const SUMMARY_PREFIX = 'Summary of the conversation so far:\n';
export const DEFAULT_KEEP_TURNS = 2;

export type CompactResult =
  | { compacted: true; tokensBefore: number; tokensAfter: number }
  | { compacted: false; reason: string };

const sizeOf = (m: Message) => (m.role === 'assistant' ? JSON.stringify(m.content).length : m.content.length);

export const estimateTokens = (messages: readonly Message[], system = '') =>
  Math.ceil((messages.reduce((n, m) => n + sizeOf(m), 0) + system.length) / 4);

/**
 * Where the kept tail starts: at the `keepTurns`-th last assistant message (or
 * the first one, when there are fewer), moved earlier until no tool call in
 * the head has its result in the tail or nowhere. 0: nothing to summarise.
 */
export function compactionCut(messages: readonly Message[], keepTurns: number): number {
  const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  if (assistants.length === 0) return 0;
  let cut = assistants[Math.max(0, assistants.length - keepTurns)] as number;
  for (let moved = true; moved && cut > 0; ) {
    moved = false;
    const resolved = new Set(messages.slice(0, cut).flatMap((m) => (m.role === 'tool' ? [m.toolUseId] : [])));
    for (let i = 0; i < cut; i++) {
      const m = messages[i] as Message;
      if (m.role === 'assistant' && m.content.some((p) => p.type === 'tool_call' && !resolved.has(p.id))) {
        cut = i;
        moved = true;
        break;
      }
    }
  }
  return cut;
}

/**
 * The default compactor: the model summarises the messages before the cut;
 * the result is the summary (a user message) followed by the kept tail.
 *
 * @example
 * createHost({ compactor: async (req) => [...(await defaultCompactor(req))] });
 */
export const defaultCompactor: Compactor = async (req) => {
  const cut = compactionCut(req.messages, req.keepTurns);
  if (cut === 0) throw new NothingToCompact(req.keepTurns);
  const turn = await streamModelTurn(
    req.model,
    {
      ...(req.systemPrompt !== undefined ? { system: req.systemPrompt } : {}),
      messages: [...req.messages.slice(0, cut), { role: 'user', content: COMPACT_INSTRUCTION }],
      // Providers refuse a history with tool calls when no tools are defined.
      tools: req.tools,
      signal: req.signal,
    },
    () => {},
  );
  if (turn.kind === 'aborted') throw new DOMException('aborted', 'AbortError');
  if (turn.kind === 'error') throw new WasmhooksError('MODEL_ERROR', `the model could not summarise (${turn.error.code}): ${turn.error.message}`);
  const summary = turn.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  return [{ role: 'user', content: `${SUMMARY_PREFIX}${summary}` }, ...req.messages.slice(cut)];
};

class NothingToCompact extends Error {
  constructor(keepTurns: number) {
    super(`nothing to compact: the conversation is no longer than the ${keepTurns} latest turns that are kept`);
  }
}

// Built at the first compaction (see lazy.ts), not when wasmhooks is imported.
const messagesSchema = lazy(() => {
  const part = z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('thinking'), text: z.string(), signature: z.string().optional(), redacted: z.string().optional() }),
    z.object({ type: z.literal('tool_call'), id: z.string(), name: z.string(), input: z.unknown() }),
  ]);
  return z.array(
    z.discriminatedUnion('role', [
      z.object({ role: z.literal('user'), content: z.string() }),
      z.object({ role: z.literal('assistant'), content: z.array(part) }),
      z.object({ role: z.literal('tool'), toolUseId: z.string(), toolName: z.string(), content: z.string(), isError: z.boolean() }),
    ]),
  );
});

/** Tool calls without a result: a compactor must keep them all. */
function unresolvedCalls(messages: readonly Message[]): string[] {
  const resolved = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolUseId] : [])));
  return messages.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool_call' && !resolved.has(p.id) ? [p.id] : [])) : []));
}

/** Checks a compactor's answer; returns the reason it cannot be used, if any. */
function rejectOutput(before: readonly Message[], after: unknown): string | undefined {
  const parsed = messagesSchema().safeParse(after);
  if (!parsed.success) return `the compactor returned something other than messages: ${z.prettifyError(parsed.error)}`;
  const kept = new Set(parsed.data.flatMap((m) => (m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : [])) : [])));
  const lost = unresolvedCalls(before).filter((id) => !kept.has(id));
  if (lost.length > 0) return `the compactor dropped unresolved tool calls ${lost.join(', ')}`;
  return splitCall(parsed.data, new Set(unresolvedCalls(before)));
}

/**
 * Where the answer parts a call from its results (a tail cut between them, the usual "keep the last
 * n messages"): every provider refuses a result whose call is not in the assistant message just
 * before it, or a call whose results do not follow it, so every later turn would fail. `open`: the
 * calls that have no result yet (they may end the conversation).
 */
function splitCall(messages: readonly Message[], open: ReadonlySet<string>): string | undefined {
  let waiting: string[] = [];
  const unanswered = () => waiting.filter((id) => !open.has(id));
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!waiting.includes(m.toolUseId)) return `the compactor returned a result for ${m.toolUseId} (message ${i}) without its call in the assistant message before it; keep a call and its results together`;
      waiting = waiting.filter((id) => id !== m.toolUseId);
      continue;
    }
    if (unanswered().length > 0) return `the compactor kept the tool calls ${unanswered().join(', ')} without their results; keep a call and its results together`;
    waiting = m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : [])) : [];
  }
  return unanswered().length > 0 ? `the compactor kept the tool calls ${unanswered().join(', ')} without their results; keep a call and its results together` : undefined;
}

/**
 * Runs PreCompact, the compactor, PostCompact and emits `context.compacted`.
 * Never throws: a skip or a failure is `{ compacted: false, reason }`.
 */
export async function compactConversation(
  config: LoopConfig,
  emit: Emit,
  signal: AbortSignal,
  trigger: 'auto' | 'manual',
  /** Runs before the first hook, only when there is something to compact (a manual compaction's due SessionStart). */
  beforeHooks?: (ctx: DispatchContext) => Promise<void>,
): Promise<CompactResult> {
  const ctx = dispatchContext(config, emit, signal);
  const common = hookCommon(config, 0);
  const before = config.messages;
  const keepTurns = config.compaction?.keepTurns ?? DEFAULT_KEEP_TURNS;
  const compactor = config.compaction?.compactor ?? defaultCompactor;
  if (before.length === 0) return { compacted: false, reason: 'the conversation is empty' };
  // The default compactor's precondition, checked before any hook is bothered.
  if (compactor === defaultCompactor && compactionCut(before, keepTurns) === 0) {
    return { compacted: false, reason: new NothingToCompact(keepTurns).message };
  }
  await beforeHooks?.(ctx);
  if (signal.aborted) return { compacted: false, reason: 'aborted' };
  const tokensBefore = estimateTokens(before);
  const pre = await dispatch(ctx, 'PreCompact', () => hookInput(common, { hook_event_name: 'PreCompact', trigger, tokens_before: tokensBefore }));
  if (signal.aborted) return { compacted: false, reason: 'aborted' };
  if (pre.decision === 'stop' || pre.decision === 'deny') {
    return { compacted: false, reason: pre.reason ?? `PreCompact hook "${pre.decidedBy?.hookName}" skipped it` };
  }

  const request: CompactRequest = {
    messages: [...before],
    ...(config.systemPrompt !== undefined ? { systemPrompt: config.systemPrompt } : {}),
    model: config.model,
    tools: config.tools.definitions(),
    trigger,
    keepTurns,
    signal,
  };
  let after: Message[];
  try {
    after = await untilAbort(compactor, request, signal);
  } catch (e) {
    if (signal.aborted) return { compacted: false, reason: 'aborted' };
    const code = e instanceof WasmhooksError ? e.code : 'COMPACTION_FAILED';
    emit({ type: 'error', code, message: `compaction failed: ${messageOf(e)}` });
    return { compacted: false, reason: messageOf(e) };
  }
  if (signal.aborted) return { compacted: false, reason: 'aborted' };
  const bad = rejectOutput(before, after);
  if (bad) {
    emit({ type: 'error', code: 'COMPACTION_FAILED', message: `compaction failed: ${bad}` });
    return { compacted: false, reason: bad };
  }
  const messagesBefore = before.length;
  before.splice(0, before.length, ...after);
  compacted(before);
  const tokensAfter = estimateTokens(before);
  await dispatch(ctx, 'PostCompact', () => hookInput(common, { hook_event_name: 'PostCompact', trigger, tokens_before: tokensBefore, tokens_after: tokensAfter }));
  emit({ type: 'context.compacted', trigger, tokensBefore, tokensAfter, messagesBefore, messagesAfter: before.length });
  // Claude Code starts the session again after a compaction (SessionStart, source `compact`): a hook puts back what
  // the summary lost (the project's rules, the branch); its context reaches the next model call. Not in a sub-agent.
  if (config.parentToolUseId === undefined && !signal.aborted) {
    await startSession(ctx, config, 'compact');
  }
  return { compacted: true, tokensBefore, tokensAfter };
}

/**
 * The compactor's answer, or a rejection as soon as the signal fires: an app's compactor that
 * ignores `request.signal` never holds the loop past an abort (its late answer is dropped).
 */
function untilAbort(compactor: Compactor, request: CompactRequest, signal: AbortSignal): Promise<Message[]> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => compactor(request))
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}
