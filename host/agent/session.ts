/**
 * A session: one conversation, one prompt at a time. A thin stateful shell
 * around `runLoop`: it owns the history, the state machine, the event bus
 * and the abort controller of the running prompt.
 */
import { WasmhooksError } from '../errors.js';
import { EventBus, type SubscribeOptions, type Subscriber } from '../events/bus.js';
import { channel } from '../events/stream.js';
import type { AgentResult, AgentState, Emit, HostEvent, HostEventOf } from '../events/types.js';
import { dispatch, type DispatchContext } from '../hooks/dispatch.js';
import type { Message } from '../models/types.js';
import { compactConversation, type CompactResult } from './compact.js';
import { dispatchContext, loopConfig, type LoopConfig, type LoopSettings } from './config.js';
import { hookCommon, hookInput } from './hook-input.js';
import { Holds } from './holds.js';
import { runLoop } from './loop.js';
import { startSession } from './session-start.js';
import { endReason, link, type CloseOptions, type PromptOptions, type SessionSettings, type StreamOptions } from './session-options.js';
import { StateMachine } from './state.js';
import type { HookText } from '../hooks/types.js';

export type { CloseOptions, PromptOptions, SessionSettings, StreamOptions } from './session-options.js';

interface Run {
  controller: AbortController;
  done: Promise<AgentResult>;
  finished: boolean;
  /** Marks the run finished and unlinks it (once): when the loop settles, or as its held `agent.end` goes out. */
  settle: () => void;
  /** Settles when the run's held `agent.end` is out (holdEnd). */
  ending?: Promise<void>;
}

/**
 * @example
 * const session = host.session();
 * for await (const ev of session.stream('List the files')) {
 *   if (ev.type === 'text.delta') process.stdout.write(ev.text);
 * }
 * const again = await session.prompt('And now the tests?'); // same conversation
 */
export class Session {
  readonly id: string;
  private readonly bus = new EventBus();
  private readonly machine: StateMachine;
  private readonly history: Message[] = [];
  private readonly pendingContext: HookText[] = [];
  private seq = 0;
  private turn = 0;
  /** The conversation has begun (here or, for a stored session, before): `close()` fires SessionEnd. */
  private started = false;
  /** What this object's first prompt fires SessionStart with (`firstStart` takes it). */
  private startSource: 'startup' | 'resume' | 'clear' | undefined;
  private closed = false;
  private run: Run | undefined;
  /** The running compaction's controller (a manual `compact()`), so `abort()` reaches it too. */
  private compaction: AbortController | undefined;
  /** Stamps and publishes one event; the loop's `emit`. */
  private readonly emit: Emit;
  /** What a prompt's `agent.end` waits for before it is published (a store's writes): `holdEnd`. */
  private readonly endHolds = new Holds<HostEventOf<'agent.end'>>();
  /** What `close()` waits for once SessionEnd is out, given the last seq stamped (a store's writes): `holdClose`. */
  private readonly closeHolds = new Holds<number>();
  /** While an `agent.end` is held: it and every event stamped after it, published in order once the holds settle. */
  private held: HostEvent[] | undefined;

  constructor(private readonly settings: SessionSettings) {
    this.id = settings.loop.sessionId;
    if (settings.history) this.history.push(...settings.history);
    if (settings.resumeAt) {
      this.seq = settings.resumeAt.seq;
      this.turn = settings.resumeAt.turn;
    }
    // A stored conversation, or a prompt counted before (one refused by UserPromptSubmit leaves no message):
    // its SessionStart (`startup`) fired where it began, so continuing it is Claude Code's `resume`.
    this.started = this.history.length > 0 || this.turn > 0;
    this.startSource = this.started ? 'resume' : (settings.startAs ?? 'startup');
    const { parentToolUseId } = settings;
    const { agentId } = settings.loop;
    // Stamped in place: every emitted event is a fresh literal owned by the bus from here on.
    this.emit = (event) => {
      const e = event as HostEvent;
      e.seq = ++this.seq;
      e.sessionId = this.id;
      e.time = Date.now();
      // A sub-agent's events arrive stamped with its own ids; keep them.
      if (agentId !== undefined) e.agentId ??= agentId;
      if (parentToolUseId !== undefined) e.parentToolUseId ??= parentToolUseId;
      if (this.held) this.held.push(e);
      else if (e.type === 'agent.end' && this.endHolds.size > 0 && e.agentId === undefined) this.publishAfterHolds(e);
      else this.bus.publish(e);
    };
    this.machine = new StateMachine(this.emit);
  }

  get state(): AgentState {
    return this.machine.state;
  }

  /** The conversation so far (read-only view). */
  get messages(): readonly Message[] {
    return this.history;
  }

  /** Every event of every prompt of this session. Returns the unsubscribe function. */
  subscribe(fn: Subscriber, options?: SubscribeOptions): () => void {
    return this.bus.subscribe(fn, options);
  }

  /** Runs a prompt; resolves with its result (never rejects for agent failures). */
  prompt(prompt: string, options: PromptOptions = {}): Promise<AgentResult> {
    return this.start(prompt, options).done;
  }

  /**
   * Runs a prompt and yields its events, ending with `agent.end`. The prompt
   * starts at once; events wait in the stream until you iterate. Stopping the
   * iteration early (break) aborts the prompt.
   */
  stream(prompt: string, options: StreamOptions = {}): AsyncIterable<HostEvent> {
    let run: Run | undefined;
    const ch = channel<HostEvent>(() => {
      off();
      if (run && !run.finished) run.controller.abort(new DOMException('the stream consumer stopped', 'AbortError'));
    });
    const off = this.bus.subscribe(
      (event) => {
        ch.push(event);
        if (event.type === 'agent.end') {
          ch.end();
          off();
        }
      },
      { buffer: options.buffer ?? Infinity },
    );
    try {
      run = this.start(prompt, options);
    } catch (e) {
      off();
      throw e;
    }
    return ch;
  }

  /**
   * Holds each prompt's `agent.end` (and whatever is emitted after it) until `hold` settles, so that
   * whoever sees the end can read what `hold` wrote (a store's transcript: read-your-writes). The
   * event arrives stamped; a rejection is ignored (`hold` reports its own failures). `prompt()` and
   * `close()` resolve after the end is out (for a hold added before the prompt started). Returns the
   * function that removes the hold.
   */
  holdEnd(hold: (end: HostEventOf<'agent.end'>) => Promise<unknown>): () => void {
    return this.endHolds.add(hold);
  }

  /**
   * Makes `close()` resolve only once `hold` settles, called after SessionEnd with the last seq stamped (a store
   * writes what the end's events moved, so a store closed next loses nothing). Returns the function that removes it.
   */
  holdClose(hold: (lastSeq: number) => Promise<unknown>): () => void {
    return this.closeHolds.add(hold);
  }

  private publishAfterHolds(end: HostEventOf<'agent.end'>): void {
    const held: HostEvent[] = [end];
    this.held = held;
    const run = this.run;
    const ending = this.endHolds.settled(end).then(() => {
      this.held = undefined;
      // Finished before the end is out, as without a hold: whoever sees agent.end may prompt again at once.
      run?.settle();
      for (const e of held) this.bus.publish(e);
    });
    if (run) run.ending = ending;
  }

  /** Aborts the running prompt, if any: model stream cancelled, hooks' signals fired, no tool starts. */
  abort(reason?: unknown): void {
    const why = reason ?? new DOMException('session.abort()', 'AbortError');
    if (this.run && !this.run.finished) this.run.controller.abort(why);
    this.compaction?.abort(why);
  }

  /** Resolves when the session is (back to) idle. */
  idle(): Promise<void> {
    return this.machine.idle();
  }

  /** Summarises the conversation to free context (PreCompact may skip it). */
  async compact(options: PromptOptions = {}): Promise<CompactResult> {
    this.assertReady();
    const controller = new AbortController();
    const unlink = link(options.signal, controller);
    this.compaction = controller;
    this.machine.to('compacting');
    try {
      const config = this.loopConfig('', controller.signal);
      // Before the first prompt, the session's own start (`resume` of a stored one) comes before the compaction's.
      const due = async (ctx: DispatchContext) => {
        const source = this.firstStart();
        if (source) await startSession(ctx, config, source);
      };
      return await compactConversation(config, this.emit, controller.signal, 'manual', due);
    } finally {
      unlink();
      this.compaction = undefined;
      if (controller.signal.aborted) this.machine.to('aborting');
      this.machine.to('idle');
    }
  }

  /**
   * Aborts what runs, fires SessionEnd (`reason`: `options.reason`, default `other`), and refuses further
   * prompts. A second call does nothing.
   */
  async close(options: CloseOptions = {}): Promise<void> {
    // Checked before anything closes: a typo must not end the session under a reason no matcher expects.
    const reason = endReason(options.reason);
    if (this.closed) return;
    this.abort(new DOMException('session closed', 'AbortError'));
    await this.run?.done;
    this.closed = true;
    if (this.started) {
      const config = this.loopConfig('', new AbortController().signal);
      const ctx = dispatchContext(config, this.emit, new AbortController().signal);
      await dispatch(ctx, 'SessionEnd', () => hookInput(hookCommon(config, 0), { hook_event_name: 'SessionEnd', reason }));
    }
    await this.closeHolds.settled(this.seq);
  }

  private assertReady(): void {
    if (this.closed) throw new WasmhooksError('SESSION_CLOSED', `session ${this.id} is closed; create a new one with host.session()`);
    // A prompt still preparing (starting MCP servers) has not left idle yet.
    if (this.machine.state !== 'idle' || (this.run && !this.run.finished)) {
      throw new WasmhooksError('SESSION_BUSY', `session ${this.id} is ${this.machine.state}; await session.idle() (or abort()) before the next prompt`);
    }
  }

  private loopConfig(prompt: string, signal: AbortSignal, sessionStart: LoopConfig['sessionStart'] = false): LoopConfig {
    const parts = { turn: this.turn, prompt, messages: this.history, pendingContext: this.pendingContext, sessionStart };
    return loopConfig(this.settings.loop, parts, this.machine, signal);
  }

  /**
   * The SessionStart `source` of this prompt, if it fires one: only the first prompt of this object, and a
   * `resume` only when this host has not started or resumed the session already (a shared store rebuilds the
   * session for each prompt; `host.resume` of a session run here). A fresh conversation is always a `startup` (`clear` after `host.clear`),
   * whatever its id.
   */
  private firstStart(): LoopConfig['sessionStart'] {
    const source = this.startSource;
    this.startSource = undefined;
    if (source === undefined) return false;
    const due = this.settings.opened?.open(this.id) ?? true;
    return source !== 'resume' || due ? source : false;
  }

  private start(prompt: string, options: PromptOptions): Run {
    if (typeof prompt !== 'string') throw new WasmhooksError('INVALID_OPTIONS', 'the prompt must be a string');
    this.assertReady();
    const controller = new AbortController();
    // First: a signal that is not one is refused before the prompt counts or the session starts.
    const unlink = link(options.signal, controller);
    this.turn++;
    const config = this.loopConfig(prompt, controller.signal, this.firstStart());
    this.started = true;
    const onAbort = () => {
      if (this.machine.state !== 'idle') this.machine.to('aborting');
    };
    controller.signal.addEventListener('abort', onAbort, { once: true });
    const unannounce = this.settings.announcements?.subscribe(this.emit);
    const run: Run = {
      controller,
      finished: false,
      done: Promise.resolve() as unknown as Promise<AgentResult>,
      settle: () => {
        if (run.finished) return;
        run.finished = true;
        unannounce?.();
        unlink();
        controller.signal.removeEventListener('abort', onAbort);
      },
    };
    const prepare = this.settings.prepare;
    const loop = prepare ? prepare().then(() => runLoop(config, this.emit, controller.signal)) : runLoop(config, this.emit, controller.signal);
    // A held agent.end (holdEnd) is out before the prompt counts as done; without holds, no step is added.
    const out =
      this.endHolds.size === 0
        ? loop
        : loop.then(async (result) => {
            await run.ending;
            return result;
          });
    run.done = out.finally(run.settle);
    this.run = run;
    return run;
  }
}
