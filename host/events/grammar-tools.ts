/**
 * The grammar checker's (grammar.ts) rules for one tool call's events: `tool.call`, the permission
 * step, `tool.progress`, and the one `tool.output` or `tool.denied` that settles it.
 */
import { isRecord } from '../json.js';
import type { CallState, GrammarRule, ScopeState } from './grammar-scope.js';
import type { HostEventOf } from './types.js';

/** What these rules need of the checker. */
export interface Checker {
  fail(rule: GrammarRule, message: string): void;
  /** A sign of the prompt's abort was seen. */
  aborted: boolean;
}

/** Denial sources that come from the permission step (after its `permission.resolved … deny`). */
const PERMISSION_DENIALS: ReadonlySet<string> = new Set(['rule', 'mode', 'session', 'callback', 'permission-hook', 'no-callback', 'callback-failed']);

export function toolCall(c: Checker, e: HostEventOf<'tool.call'>, s: ScopeState): void {
  const t = s.turn;
  if (t?.message !== 'open' || t.unfinished) return c.fail('message', `tool.call ${e.toolUseId} outside a model message`);
  if (t.calls.has(e.toolUseId)) return c.fail('tool', `tool.call ${e.toolUseId} twice in one turn (each call is settled once by its id)`);
  const call: CallState = { id: e.toolUseId, name: e.name, object: isRecord(e.input), index: t.order.length, firstRound: false, questioned: false, asked: false, settled: false };
  t.calls.set(e.toolUseId, call);
  t.order.push(call);
}

/** The open turn's call `id`, not yet settled, its message complete (`unfinished`: or a message that will not end). */
function openCall(c: Checker, s: ScopeState, id: string | undefined, rule: GrammarRule, what: string, unfinished = false): CallState | undefined {
  const call = id === undefined ? undefined : s.turn?.calls.get(id);
  if (!call || !(s.turn?.message === 'ended' || (unfinished && s.turn?.message === 'open'))) {
    c.fail(rule, `${what} for ${id ?? 'no call'}, not a call of the open turn's complete message`);
    return undefined;
  }
  if (call.settled) {
    c.fail(rule, `${what} for ${id} after it settled`);
    return undefined;
  }
  return call;
}

export function toolOutput(c: Checker, e: HostEventOf<'tool.output'>, s: ScopeState): void {
  const call = openCall(c, s, e.toolUseId, 'tool', e.type);
  if (!call || !s.turn) return;
  if (s.hook) c.fail('hook', `tool.output ${e.toolUseId} while hook ${s.hook.event} is open`);
  if (call.object && call.resolved !== 'allow') c.fail('tool', `tool.output ${e.toolUseId} of a call that was not allowed to run`);
  if (call.post === 'PostToolUseFailure' && !e.isError) c.fail('tool', `tool.output ${e.toolUseId} is not an error after PostToolUseFailure`);
  if (call.subagent && !call.subagent.ended) c.fail('subagent', `tool.output ${e.toolUseId} before subagent.end of ${call.subagent.agentId}`);
  if (call.index < s.turn.lastOutput) c.fail('tool', `tool.output ${e.toolUseId} out of the model's order`);
  s.turn.lastOutput = call.index;
  call.settled = true;
}

export function toolDenied(c: Checker, e: HostEventOf<'tool.denied'>, s: ScopeState): void {
  // The calls of a message that failed or was aborted are denied before its turn.end, the message still open.
  const unfinished = e.source === 'aborted' || e.source === 'model-error';
  const call = openCall(c, s, e.toolUseId, 'tool', e.type, unfinished);
  if (!call || !s.turn) return;
  if (e.source === 'model-error' && s.turn.message !== 'open') c.fail('tool', `tool.denied ${e.toolUseId} (model-error) of a message that ended`);
  if (s.turn.message === 'open') s.turn.unfinished = true;
  if (s.hook) c.fail('hook', `tool.denied ${e.toolUseId} while hook ${s.hook.event} is open`);
  if (call.post) c.fail('tool', `tool.denied ${e.toolUseId} after its ${call.post} hooks (a denied call did not run)`);
  if (PERMISSION_DENIALS.has(e.source) && (call.resolved !== 'deny' || call.resolvedSource !== e.source)) c.fail('permission', `tool.denied ${e.toolUseId} (${e.source}) without a permission.resolved deny from ${e.source}`);
  if (call.resolved === 'deny' && e.source !== call.resolvedSource && e.source !== 'aborted') c.fail('permission', `tool.denied ${e.toolUseId} (${e.source}) after permission.resolved deny from ${call.resolvedSource}`);
  if (e.source === 'aborted') c.aborted = true;
  if (call.index < s.turn.lastDenied) c.fail('tool', `tool.denied ${e.toolUseId} out of the model's order`);
  s.turn.lastDenied = call.index;
  call.settled = true;
}

export function permissionRequest(c: Checker, e: HostEventOf<'permission.request'>, s: ScopeState): void {
  const call = openCall(c, s, e.toolUseId, 'permission', e.type);
  if (!call) return;
  if (call.asked || call.resolved || s.hook) c.fail('permission', `permission.request for ${e.toolUseId} ${s.hook ? 'while a hook runs' : 'asked twice or after its answer'}`);
  call.asked = true;
}

export function permissionResolved(c: Checker, e: HostEventOf<'permission.resolved'>, s: ScopeState): void {
  const call = openCall(c, s, e.toolUseId, 'permission', e.type);
  if (!call) return;
  if (call.resolved || s.hook || !call.object) c.fail('permission', `permission.resolved for ${e.toolUseId} ${s.hook ? 'while a hook runs' : call.object ? 'twice' : 'of a call whose input is not an object'}`);
  // The input that runs is an allow's alone (a denied call runs nothing), and a tool input is an object.
  if (e.input !== undefined && (e.behavior !== 'allow' || !isRecord(e.input))) {
    c.fail('permission', `permission.resolved for ${e.toolUseId} carries an input ${e.behavior === 'allow' ? 'that is not an object' : 'on a deny'}`);
  }
  call.resolved = e.behavior;
  call.resolvedSource = e.source;
}

export function toolProgress(c: Checker, e: HostEventOf<'tool.progress'>, s: ScopeState): void {
  const call = openCall(c, s, e.toolUseId, 'tool', e.type);
  if (call && (call.resolved !== 'allow' || call.post)) c.fail('tool', `tool.progress of ${e.toolUseId} ${call.post ? 'after its call settled' : 'before it was allowed to run'}`);
}
