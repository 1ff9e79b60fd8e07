/**
 * The state the grammar checker (grammar.ts) keeps for one agent: the top-level agent of a prompt
 * (scope key '') or one sub-agent (its `agentId`), and the open turn's tool calls.
 */
import type { AgentState, HostEventOf } from './types.js';

/** Which rule an event broke (docs/events.md, "The grammar, as a checker"). */
export type GrammarRule = 'seq' | 'frame' | 'turn' | 'message' | 'tool' | 'permission' | 'hook' | 'subagent' | 'error' | 'result' | 'state';

/** One tool call of the open turn, as far as its events have taken it. */
export interface CallState {
  readonly id: string;
  readonly name: string;
  /** The model's input was a JSON object (a call with any other input skips PreToolUse and the permission step). */
  readonly object: boolean;
  /** Its place in the model's order. */
  readonly index: number;
  firstRound: boolean;
  /** Its PermissionRequest hooks ran: they answer before `permission.request` announces the question to the app. */
  questioned: boolean;
  asked: boolean;
  resolved?: 'allow' | 'deny';
  resolvedSource?: string;
  post?: 'PostToolUse' | 'PostToolUseFailure';
  settled: boolean;
  /** The sub-agent this call (an `agent` call) started, while it runs; `ended` once subagent.end came. */
  subagent?: { agentId: string; ended: boolean };
}

export interface TurnState {
  readonly n: number;
  message: 'before' | 'open' | 'ended';
  /** The open message will not end: its calls are being denied (it failed or was aborted). */
  unfinished: boolean;
  stopReason?: string;
  readonly calls: Map<string, CallState>;
  readonly order: CallState[];
  preBatch: boolean;
  postBatch: boolean;
  /** A Stop hook blocked: the loop goes on to another turn, or ends error_max_turns when none is left. */
  stopBlocked: boolean;
  /** The index (model order) of the last call that got its tool.output / tool.denied. */
  lastOutput: number;
  lastDenied: number;
}

export interface ScopeState {
  readonly key: string;
  readonly sub: boolean;
  open: boolean;
  turn?: TurnState;
  lastTurn: number;
  lastTurnCalls: number;
  /** The last turn's Stop hooks blocked (it asked for another turn). */
  lastTurnBlocked: boolean;
  hook?: HostEventOf<'hook.start'>;
  /** An `error` event not (yet) followed by anything but StopFailure/Error hooks: what ends the agent with an error. */
  terminal?: string;
  /** A `turn.end … error` was seen: the next event of this agent must be its `error`. */
  expectError: boolean;
  modelCalls: number;
  turnStarts: number;
  promptHooks: boolean;
  /** A compaction just ended (`context.compacted`, then only SessionStart hooks): its SessionStart (source `compact`) may come. */
  compacted: boolean;
  state: AgentState;
  /** For a sub-agent: the scope and call that started it. */
  parent?: { scope: ScopeState; call: CallState };
}

export function newScope(key: string, sub: boolean): ScopeState {
  return { key, sub, open: false, lastTurn: 0, lastTurnCalls: 0, lastTurnBlocked: false, expectError: false, modelCalls: 0, turnStarts: 0, promptHooks: false, compacted: false, state: 'idle' };
}

export function newTurn(n: number): TurnState {
  return { n, message: 'before', unfinished: false, calls: new Map(), order: [], preBatch: false, postBatch: false, stopBlocked: false, lastOutput: -1, lastDenied: -1 };
}

/** The state machine's moves (host/agent/state.ts uses this table); `aborting` accepts only `idle`. */
export const STATE_MOVES: Readonly<Record<AgentState, readonly AgentState[]>> = {
  idle: ['thinking', 'compacting'],
  thinking: ['executing', 'compacting', 'aborting', 'idle'],
  executing: ['thinking', 'aborting', 'idle'],
  compacting: ['thinking', 'aborting', 'idle'],
  aborting: ['idle'],
};
