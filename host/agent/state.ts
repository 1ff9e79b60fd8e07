/**
 * The session's state machine: Idle → Thinking → Executing → Idle, with
 * Compacting and Aborting. Every transition is a state.change event.
 */
import type { AgentState, Emit } from '../events/types.js';
import { STATE_MOVES } from '../events/grammar-scope.js';

/** The moves, stated once with the grammar that checks them (host/events/grammar-scope.ts). */
const NEXT = STATE_MOVES;

export class StateMachine {
  private current: AgentState = 'idle';
  private waiters: Array<() => void> = [];

  constructor(private readonly emit: Emit) {}

  get state(): AgentState {
    return this.current;
  }

  /**
   * Moves to `to`. Once aborting, only `idle` is accepted (the loop may still
   * try to move on before it sees the abort). Any other illegal move is a bug.
   */
  to(to: AgentState): void {
    const from = this.current;
    if (from === to) return;
    if (from === 'aborting' && to !== 'idle') return;
    if (!NEXT[from].includes(to)) throw new Error(`internal: illegal state change ${from} → ${to}`);
    this.current = to;
    this.emit({ type: 'state.change', from, to });
    if (to === 'idle') {
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    }
  }

  /** Resolves when the state is (back to) idle. */
  idle(): Promise<void> {
    if (this.current === 'idle') return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
