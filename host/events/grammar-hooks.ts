/**
 * Where each hook event may fire among the events of a prompt (docs/events.md, the grammar's hook
 * rules; docs/hooks.md "Fires"): the grammar checker's (grammar.ts) checks of `hook.start` and `hook.end`.
 * Records what the start tells about the open turn (a call's first PreToolUse round, its Post*
 * event, the batch hooks) and returns what is wrong, if anything.
 */
import { HOOK_EVENT_RULES } from '../hooks/decisions.js';
import type { CallState, ScopeState } from './grammar-scope.js';
import type { Checker } from './grammar-tools.js';
import type { HostEventOf } from './types.js';

/** The agent tool (host/agent/subagent.ts AGENT_TOOL), named here so that events do not import the agent. */
const AGENT_TOOL = 'agent';

/** Why `e` may not start here (a phrase that follows the event's name), or undefined. */
function hookPlacement(e: HostEventOf<'hook.start'>, s: ScopeState, sessionSpan: boolean): string | undefined {
  const t = s.turn;
  switch (e.event) {
    case 'SessionStart':
    case 'UserPromptSubmit':
      if (s.sub) return 'inside a sub-agent';
      // SessionStart also fires after each compaction (source `compact`), where the compaction was.
      if (e.event === 'SessionStart' && s.compacted) return undefined;
      if (!s.open || s.lastTurn > 0 || t) return 'after the prompt\'s first turn started (it comes between agent.start and turn 1)';
      if (e.event === 'SessionStart' && s.promptHooks) return 'after UserPromptSubmit';
      if (e.event === 'UserPromptSubmit') s.promptHooks = true;
      return undefined;
    case 'SessionEnd':
      return s.open || s.sub || !sessionSpan ? 'inside a prompt (it fires at session.close())' : undefined;
    case 'IterationStart':
      return t?.message === 'before' ? undefined : 'outside a turn\'s start (it comes after turn.start, before message.start)';
    case 'PreCompact':
    case 'PostCompact':
      return t && t.message !== 'before' ? 'inside a model call or a tool batch (compaction comes before a model call)' : undefined;
    case 'Stop':
      if (s.sub) return 'inside a sub-agent (SubagentStop fires at its caller)';
      return t?.message === 'ended' && t.order.length === 0 ? undefined : 'outside a turn whose model answered without tool calls';
    case 'StopFailure':
    case 'Error':
      return s.terminal !== undefined && !t ? undefined : 'without the error event that ends the prompt before it';
    case 'PreToolBatch':
      if (t?.message !== 'ended' || t.order.length === 0) return 'outside a turn with tool calls';
      if (t.postBatch || t.order.some((c) => c.firstRound || c.settled)) return 'after the batch\'s calls began';
      t.preBatch = true;
      return undefined;
    case 'PostToolBatch':
      if (t?.message !== 'ended' || t.order.length === 0) return 'outside a turn with tool calls';
      if (t.order.some((c) => !c.settled)) return 'before every call of the batch settled';
      t.postBatch = true;
      return undefined;
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return toolHook(e, s);
    case 'Notification':
      return t?.order.some((c) => c.asked && !c.resolved && !c.settled) ? undefined : 'without a permission question open (permission.request before it, no permission.resolved yet)';
    case 'SubagentStart':
    case 'SubagentStop':
      return t?.order.some((c) => c.name === AGENT_TOOL && c.resolved === 'allow' && !c.settled && !c.post)
        ? undefined
        : 'outside a running agent call (after its permission.resolved allow, before its Post* hooks)';
    default: {
      const never: never = e.event;
      return `of an unknown event ${String(never)}`;
    }
  }
}

/** PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure: hooks of one call, at its steps. */
function toolHook(e: HostEventOf<'hook.start'>, s: ScopeState): string | undefined {
  const t = s.turn;
  const call: CallState | undefined = e.toolUseId === undefined ? undefined : t?.calls.get(e.toolUseId);
  if (!call || t?.message !== 'ended') return `for ${e.toolUseId ?? 'no toolUseId'}, not a call of the open turn's complete message`;
  if (call.settled) return `for ${call.id} after it settled`;
  if (!call.object && e.event !== 'PostToolUseFailure') return `for ${call.id}, whose input is not an object (it skips the guards and fails)`;
  switch (e.event) {
    case 'PreToolUse':
      if (e.recheck === true) return call.resolved === 'allow' && !call.post ? undefined : `re-check of ${call.id} before its permission.resolved allow`;
      if (call.questioned || call.asked || call.resolved || call.post) return `for ${call.id} after its permission step (only a re-check, marked recheck, comes then)`;
      call.firstRound = true;
      return undefined;
    case 'PermissionRequest':
      // Before permission.request: the hooks answer first, and the app is asked (the event) only when none did.
      if (call.asked || call.resolved || call.post) return `for ${call.id} outside its permission step (after its PreToolUse hooks, before permission.request and permission.resolved)`;
      call.questioned = true;
      return undefined;
    case 'PostToolUse':
    case 'PostToolUseFailure':
      if (call.post && call.post !== e.event) return `for ${call.id} after ${call.post} (never both)`;
      if (e.event === 'PostToolUse' && call.resolved !== 'allow') return `for ${call.id}, which was not allowed to run`;
      if (call.resolved === 'deny') return `for ${call.id}, which was denied`;
      call.post = e.event;
      return undefined;
    default:
      return `for a tool call (${e.event} is not a tool event)`;
  }
}

/** A `hook.start`: one hook open at a time, none after the abort, a known event in its place. */
export function hookStart(c: Checker, e: HostEventOf<'hook.start'>, s: ScopeState, sessionSpan: boolean): void {
  if (s.hook) c.fail('hook', `hook.start ${e.event}/${e.hookName} while ${s.hook.event}/${s.hook.hookName} is open`);
  if (c.aborted) c.fail('hook', `hook.start ${e.event}/${e.hookName} after the prompt was aborted (an abort cuts every chain)`);
  if (!(e.event in HOOK_EVENT_RULES)) c.fail('hook', `hook.start of an unknown event ${e.event}`);
  else {
    const wrong = hookPlacement(e, s, sessionSpan);
    if (wrong) c.fail('hook', `${e.event} hook ${wrong}`);
  }
  s.hook = e;
}

/** A `hook.end`: its start's, with a legal decision (a failure's is its policy's). */
export function hookEnd(c: Checker, e: HostEventOf<'hook.end'>, s: ScopeState): void {
  const h = s.hook;
  if (!h || h.hookId !== e.hookId || h.event !== e.event || h.toolUseId !== e.toolUseId || h.recheck !== e.recheck) {
    c.fail('hook', `hook.end ${e.event}/${e.hookName} without its hook.start`);
  } else s.hook = undefined;
  if (e.event === 'Stop' && e.decision === 'block' && s.turn) s.turn.stopBlocked = true;
  const rule = HOOK_EVENT_RULES[e.event];
  if (rule && !rule.decisions.includes(e.decision)) c.fail('hook', `hook.end ${e.event}/${e.hookName} with decision ${e.decision} (legal: ${rule.decisions.join(', ')})`);
  if ((e.failure === undefined) !== (e.failurePolicy === undefined)) c.fail('hook', `hook.end ${e.event}/${e.hookName}: failure and failurePolicy come together`);
  // A failure's decision is its policy's: continue when open, the event's closed decision when closed.
  const closed = rule?.closedDecision ?? 'continue';
  if (e.failurePolicy !== undefined && e.decision !== (e.failurePolicy === 'fail-open' ? 'continue' : closed)) {
    c.fail('hook', `hook.end ${e.event}/${e.hookName}: a failure under ${e.failurePolicy} decides ${e.decision} (want ${e.failurePolicy === 'fail-open' ? 'continue' : closed})`);
  }
}
