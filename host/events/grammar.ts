/**
 * The grammar of the event stream (docs/events.md), as one executable checker: the order every
 * prompt's events keep on every path (a natural end, a hook stop, an error, an abort anywhere),
 * stated once, used by our conformance tests on Node, Deno and Bun, and exported so that an app,
 * a custom Model's author or a replay consumer can check a stream it recorded.
 */
import { newScope, newTurn, STATE_MOVES, type GrammarRule, type ScopeState } from './grammar-scope.js';

export type { GrammarRule } from './grammar-scope.js';
import type { HostEvent, HostEventOf } from './types.js';
import { hookEnd, hookStart } from './grammar-hooks.js';
import { checkResult, isErrorCode } from './grammar-result.js';
import { assertGrammarInput, notAnEvent } from './grammar-input.js';
import { toolCall, toolDenied, toolOutput, toolProgress, permissionRequest, permissionResolved, type Checker } from './grammar-tools.js';

export interface GrammarViolation {
  rule: GrammarRule;
  /** The offending event's place in the list (the list's length for what is missing at the end). */
  index: number;
  message: string;
}

export interface GrammarOptions {
  /**
   * `prompt` (default): the events of one `session.stream()`, agent.start … agent.end.
   * `session`: what a session subscriber sees: any number of prompts, and between them manual
   * compactions (`session.compact()`) and SessionEnd hooks.
   */
  span?: 'prompt' | 'session';
  /** `seq` may skip (a subscriber that joined late or a replay that starts mid-stream); it must still increase. */
  gaps?: boolean;
}

/** Events outside the grammar: host-wide news and a subscriber's own drop notice may come anywhere. */
const AMBIENT: ReadonlySet<string> = new Set(['plugin.health', 'plugin.log', 'mcp.server.connected', 'mcp.server.closed', 'mcp.server.error', 'events.dropped']);

/**
 * The rules `events` break, in order (empty when the stream is well formed).
 *
 * @example
 * const events = [];
 * for await (const e of session.stream('go')) events.push(e);
 * const broken = eventGrammarViolations(events);
 * if (broken.length > 0) throw new Error(broken.map((v) => `#${v.index} ${v.rule}: ${v.message}`).join('\n'));
 */
export function eventGrammarViolations(events: readonly HostEvent[], options: GrammarOptions = {}): GrammarViolation[] {
  assertGrammarInput(events, options);
  return new GrammarChecker(options).run(events);
}

/** What may follow the error that ends an agent: its StopFailure and Error hooks, state changes, the end. */
function afterError(e: HostEvent): boolean {
  if (e.type === 'hook.start' || e.type === 'hook.end') return e.event === 'StopFailure' || e.event === 'Error';
  return e.type === 'state.change' || e.type === 'agent.end' || e.type === 'subagent.end' || e.type === 'error';
}

class GrammarChecker implements Checker {
  private readonly out: GrammarViolation[] = [];
  private readonly scopes = new Map<string, ScopeState>([['', newScope('', false)]]);
  private readonly top = this.scopes.get('') as ScopeState;
  private index = 0;
  private prompts = 0;
  private lastPrompt: number | undefined;
  private ended = false;
  /** A sign of the prompt's abort was seen: no hook starts after it. */
  aborted = false;
  private lastSeq: number | undefined;
  /** The `agentId` of the stream's own agent: none, or a session's own (`host.session({ agentId })`), set by its first agent.start. */
  private topId: string | undefined;
  private sessionId: string | undefined;

  constructor(private readonly options: GrammarOptions) {}

  run(events: readonly HostEvent[]): GrammarViolation[] {
    for (const e of events) {
      try {
        const shape = notAnEvent(e);
        if (shape !== undefined) this.fail('frame', `entry ${this.index} is not an event: ${shape}`);
        else this.event(e);
      } catch (error) {
        // A field of a hostile type (a symbol, a getter that throws) deeper than the shape check: a violation, never a throw.
        this.fail('frame', `event ${this.index} could not be checked (a field of the wrong type?): ${error instanceof Error ? error.message : 'unknown error'}`);
      }
      this.index++;
    }
    if (this.options.span !== 'session' && !this.ended) this.fail('frame', 'the stream ended without agent.end');
    if (this.options.span === 'session' && this.top.open) this.fail('frame', 'the last prompt has no agent.end');
    return this.out;
  }

  fail(rule: GrammarRule, message: string): void {
    this.out.push({ rule, index: this.index, message });
  }

  private event(e: HostEvent): void {
    this.seq(e);
    if (AMBIENT.has(e.type)) return;
    if (this.ended) return this.fail('frame', `${e.type} after agent.end (nothing follows the end of a prompt)`);
    if (e.type === 'agent.start' && this.prompts === 0) this.topId = e.agentId;
    const s = this.scopeOf(e);
    if (!s) return;
    if (s.expectError && e.type !== 'error') this.fail('error', `turn ${s.lastTurn} ended with stopReason error, then came ${e.type} instead of its error event`);
    s.expectError = false;
    if (s.terminal !== undefined && !afterError(e)) s.terminal = undefined;
    if (!s.open && e.type !== 'agent.start' && e.type !== 'subagent.start' && !this.between(e)) return this.fail('frame', `${e.type} outside a prompt`);
    this.typed(e, s);
  }

  /** What may come between prompts (`span: 'session'`): state changes and a manual compaction's events, SessionEnd. */
  private between(e: HostEvent): boolean {
    if (this.options.span !== 'session' || e.agentId !== this.topId) return false;
    return e.type === 'state.change' || e.type === 'hook.start' || e.type === 'hook.end' || e.type === 'context.compacted' || e.type === 'error';
  }

  private seq(e: HostEvent): void {
    if (this.sessionId === undefined) this.sessionId = e.sessionId;
    else if (e.sessionId !== this.sessionId) this.fail('seq', `sessionId ${e.sessionId} in a stream of ${this.sessionId}`);
    if (!Number.isSafeInteger(e.seq)) return this.fail('seq', `seq ${String(e.seq)} is not an integer`);
    const last = this.lastSeq;
    this.lastSeq = e.seq;
    if (last === undefined) return;
    if (e.type === 'events.dropped' || this.options.gaps === true) {
      if (e.seq <= last && e.type !== 'events.dropped') this.fail('seq', `seq ${e.seq} after ${last}`);
    } else if (e.seq !== last + 1) this.fail('seq', `seq ${e.seq} after ${last} (each event is the last + 1)`);
  }

  /** The agent an event belongs to: the prompt's own, or a sub-agent's (by `agentId`). */
  private scopeOf(e: HostEvent): ScopeState | undefined {
    const id = e.agentId;
    if (id === this.topId || id === undefined) return this.top;
    const s = this.scopes.get(id);
    if (s) return s;
    if (e.type === 'subagent.start') {
      const created = newScope(id, true);
      this.scopes.set(id, created);
      return created;
    }
    this.fail('subagent', `${e.type} of sub-agent ${id} before its subagent.start`);
    return undefined;
  }

  private typed(e: HostEvent, s: ScopeState): void {
    if ((e.type !== 'hook.start' && e.type !== 'hook.end') || e.event !== 'SessionStart') s.compacted = false;
    switch (e.type) {
      case 'agent.start':
        return this.agentStart(e, s);
      case 'agent.end':
        return this.agentEnd(e, s);
      case 'subagent.start':
        return this.subagentStart(e, s);
      case 'subagent.end':
        return this.subagentEnd(e, s);
      case 'turn.start':
        return this.turnStart(e, s);
      case 'turn.end':
        return this.turnEnd(e, s);
      case 'message.start':
        if (!s.turn || s.turn.message !== 'before' || s.hook) return this.fail('message', `message.start ${s.turn ? `in turn ${s.turn.n} (message ${s.turn.message}${s.hook ? `, hook ${s.hook.event} open` : ''})` : 'outside a turn'}`);
        s.turn.message = 'open';
        s.modelCalls++;
        return;
      case 'text.delta':
      case 'thinking.delta':
      case 'tool.input.delta':
        if (s.turn?.message !== 'open' || s.turn.unfinished) this.fail('message', `${e.type} outside a model message`);
        return;
      case 'tool.call':
        return toolCall(this, e, s);
      case 'message.end':
        if (s.turn?.message !== 'open' || s.turn.unfinished) return this.fail('message', 'message.end without message.start');
        s.turn.message = 'ended';
        s.turn.stopReason = e.stopReason;
        return;
      case 'hook.start':
        return hookStart(this, e, s, this.options.span === 'session');
      case 'hook.end':
        return hookEnd(this, e, s);
      case 'permission.request':
        return permissionRequest(this, e, s);
      case 'permission.resolved':
        return permissionResolved(this, e, s);
      case 'tool.progress':
        return toolProgress(this, e, s);
      case 'tool.output':
        return toolOutput(this, e, s);
      case 'tool.denied':
        return toolDenied(this, e, s);
      case 'state.change':
        if (e.from !== s.state) this.fail('state', `state.change from ${e.from}, but the state was ${s.state}`);
        else if (!STATE_MOVES[e.from].includes(e.to)) this.fail('state', `state.change ${e.from} → ${e.to} is not a move of the state machine`);
        s.state = e.to;
        return;
      case 'context.compacted':
        if (s.hook || (s.turn && s.turn.message !== 'before')) this.fail('frame', 'context.compacted inside a model call or a tool batch (compaction comes before a model call)');
        s.compacted = true;
        return;
      case 'error':
        if (!isErrorCode(e.code)) this.fail('error', `error code ${JSON.stringify(e.code)} is not an AgentErrorCode`);
        if (typeof e.message !== 'string' || e.message === '') this.fail('error', `error ${e.code} without a message`);
        if (s.hook) this.fail('error', `error ${e.code} while hook ${s.hook.event} runs`);
        s.terminal = e.code;
        return;
      case 'plugin.health':
      case 'plugin.log':
      case 'mcp.server.connected':
      case 'mcp.server.closed':
      case 'mcp.server.error':
      case 'events.dropped':
        return;
      default: {
        const never: never = e;
        return this.fail('frame', `unknown event type ${JSON.stringify((never as { type: unknown }).type)}`);
      }
    }
  }

  private agentStart(e: HostEventOf<'agent.start'>, s: ScopeState): void {
    if (s.open) return this.fail('frame', 'agent.start inside a prompt');
    // Prompts count 1, 2, 3 … in a session, also across a session continued from a store.
    if (!Number.isSafeInteger(e.turn) || e.turn < 1 || (this.lastPrompt !== undefined && e.turn !== this.lastPrompt + 1)) this.fail('frame', `agent.start of prompt ${e.turn} after prompt ${this.lastPrompt ?? 'none'}`);
    this.lastPrompt = e.turn;
    if (++this.prompts > 1 && this.options.span !== 'session') this.fail('frame', 'a second agent.start (a prompt stream holds one prompt)');
    Object.assign(s, newScope('', false), { open: true, state: s.state });
    this.aborted = false;
  }

  private agentEnd(e: HostEventOf<'agent.end'>, s: ScopeState): void {
    if (!s.open) return this.fail('frame', 'agent.end without agent.start');
    this.closing(s, 'agent.end');
    for (const sub of this.scopes.values()) if (sub.sub && sub.open) this.fail('subagent', `agent.end while sub-agent ${sub.key} still runs`);
    checkResult(this, e.result, s);
    s.open = false;
    if (this.options.span !== 'session') this.ended = true;
  }

  /** What must be closed when an agent (prompt or sub-agent) ends. */
  private closing(s: ScopeState, what: string): void {
    if (s.turn) this.fail('turn', `${what} while turn ${s.turn.n} is open (every turn.start gets its turn.end first)`);
    if (s.hook) this.fail('hook', `${what} while hook ${s.hook.event}/${s.hook.hookName} is open`);
  }

  private subagentStart(e: HostEventOf<'subagent.start'>, s: ScopeState): void {
    if (s.open) return this.fail('subagent', `subagent.start of ${s.key} while it runs`);
    const parent = [...this.scopes.values()].find((p) => p.open && p.turn?.calls.get(e.parentToolUseId ?? '')?.resolved === 'allow');
    const call = parent?.turn?.calls.get(e.parentToolUseId ?? '');
    if (!parent || !call || call.settled || call.post || call.subagent) return this.fail('subagent', `subagent.start of ${s.key} outside a running agent call (${e.parentToolUseId})`);
    Object.assign(s, newScope(s.key, true), { open: true, parent: { scope: parent, call } });
    call.subagent = { agentId: s.key, ended: false };
  }

  private subagentEnd(e: HostEventOf<'subagent.end'>, s: ScopeState): void {
    if (!s.open || !s.parent) return this.fail('subagent', `subagent.end of ${s.key} without its subagent.start`);
    this.closing(s, 'subagent.end');
    if ((e.result.subtype === 'error_during_execution') !== (e.result.error !== undefined)) this.fail('result', `sub-agent result ${e.result.subtype} ${e.result.error ? 'with' : 'without'} an error`);
    if (e.result.subtype === 'aborted') this.aborted = true;
    s.open = false;
    if (s.parent.call.subagent) s.parent.call.subagent.ended = true;
  }

  private turnStart(e: HostEventOf<'turn.start'>, s: ScopeState): void {
    if (s.turn || s.hook) return this.fail('turn', `turn.start ${e.iteration} while ${s.turn ? `turn ${s.turn.n}` : `hook ${s.hook?.event}`} is open`);
    // A sub-agent sent back to work by SubagentStop runs its loop again from turn 1.
    if (e.iteration !== s.lastTurn + 1 && !(s.sub && e.iteration === 1)) this.fail('turn', `turn.start ${e.iteration} after turn ${s.lastTurn} (turns count 1, 2, 3 …)`);
    s.turn = newTurn(e.iteration);
    s.lastTurn = e.iteration;
    s.turnStarts++;
  }

  private turnEnd(e: HostEventOf<'turn.end'>, s: ScopeState): void {
    const t = s.turn;
    if (!t || t.n !== e.iteration) return this.fail('turn', `turn.end ${e.iteration} without its turn.start`);
    if (s.hook) this.fail('hook', `turn.end ${e.iteration} while hook ${s.hook.event} is open`);
    const unsettled = t.order.filter((c) => !c.settled).map((c) => c.id);
    if (unsettled.length > 0) this.fail('tool', `turn.end ${e.iteration} with calls not settled: ${unsettled.join(', ')}`);
    if (e.toolCalls !== t.order.length) this.fail('turn', `turn.end ${e.iteration} counts ${e.toolCalls} calls; the model asked for ${t.order.length}`);
    const ok =
      t.message === 'ended'
        ? e.stopReason === t.stopReason || e.stopReason === 'aborted'
        : t.message === 'open'
          ? e.stopReason === 'error' || e.stopReason === 'aborted'
          : e.stopReason === 'aborted' || e.stopReason === 'error' || e.stopReason === 'end_turn';
    if (!ok) this.fail('turn', `turn.end ${e.iteration} ${e.stopReason} after a message ${t.message}${t.stopReason ? ` (${t.stopReason})` : ''}`);
    if (e.stopReason === 'error') s.expectError = true;
    if (e.stopReason === 'aborted') this.aborted = true;
    s.lastTurnCalls = t.order.length;
    s.lastTurnBlocked = t.stopBlocked;
    s.turn = undefined;
  }
}
