/**
 * The hook registry: handlers by event, in registration order. Sessions read
 * it at each dispatch, so adding or removing a hook affects running sessions
 * from their next hook point on.
 */
import { WasmhooksError } from '../errors.js';
import { assertHookEvent, jsHookHandlers } from './js.js';
import type { HookCallbackMatcher, HookEventName, HookHandler, HooksConfig } from './types.js';
import { HOOK_EVENT_NAMES } from './types.js';

const EMPTY: readonly HookHandler[] = Object.freeze([]);

/**
 * @example
 * const ids = host.hooks.add('PreToolUse', { matcher: 'Write|Edit', hooks: [guard] });
 * host.hooks.remove(ids[0]);
 */
export class HookRegistry {
  private byEvent = new Map<HookEventName, readonly HookHandler[]>();

  /** Registers JS callbacks under one matcher; returns one id per callback. */
  add(event: HookEventName, group: HookCallbackMatcher): string[] {
    const handlers = jsHookHandlers(event, group);
    for (const h of handlers) this.addHandler(h);
    return handlers.map((h) => h.id);
  }

  /** Registers every group of a `hooks` option. */
  addConfig(config: HooksConfig): string[] {
    const ids: string[] = [];
    for (const [event, groups] of Object.entries(config)) {
      assertHookEvent(event);
      for (const group of groups ?? []) ids.push(...this.add(event, group));
    }
    return ids;
  }

  /**
   * Registers a handler of any kind (JS, WASM, shell). What is kept is a
   * frozen copy of its fields, each read once, and its `run` bound to it: a
   * getter that passed the checks here (a failure policy, a timeout) cannot
   * answer otherwise when the chain reads it.
   */
  addHandler(handler: HookHandler): string {
    const { id, name, kind, event, plugin, matcher, sessions, failurePolicy, timeoutMs, enforcesTimeout, run } = handler;
    assertHookEvent(event);
    if (typeof id !== 'string' || typeof name !== 'string') throw new WasmhooksError('INVALID_OPTIONS', 'a hook handler needs a string id and name');
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
      throw new WasmhooksError('INVALID_OPTIONS', `hook ${name}: timeoutMs must be > 0, got ${String(timeoutMs)}`);
    }
    if (failurePolicy !== 'fail-closed' && failurePolicy !== 'fail-open') {
      throw new WasmhooksError('INVALID_OPTIONS', `hook ${name}: failurePolicy must be fail-closed or fail-open`);
    }
    if (typeof run !== 'function') throw new WasmhooksError('INVALID_OPTIONS', `hook ${name}: run must be a function`);
    if (this.get(id)) throw new WasmhooksError('INVALID_OPTIONS', `a hook with id ${id} is already registered`);
    const kept: HookHandler = Object.freeze({
      id,
      name,
      kind,
      event,
      failurePolicy,
      timeoutMs,
      ...(plugin !== undefined ? { plugin } : {}),
      ...(matcher !== undefined ? { matcher } : {}),
      ...(sessions !== undefined ? { sessions } : {}),
      ...(enforcesTimeout !== undefined ? { enforcesTimeout: enforcesTimeout === true } : {}),
      run: run.bind(handler),
    });
    this.byEvent.set(event, [...this.forEvent(event), kept]);
    return id;
  }

  /** Returns whether a hook with this id was registered. */
  remove(id: string): boolean {
    for (const [event, list] of this.byEvent) {
      const next = list.filter((h) => h.id !== id);
      if (next.length !== list.length) {
        this.byEvent.set(event, next);
        return true;
      }
    }
    return false;
  }

  get(id: string): HookHandler | undefined {
    for (const list of this.byEvent.values()) for (const h of list) if (h.id === id) return h;
    return undefined;
  }

  /** Handlers for one event, in registration order (a snapshot). */
  forEvent(event: HookEventName): readonly HookHandler[] {
    return this.byEvent.get(event) ?? EMPTY;
  }

  list(): HookHandler[] {
    return HOOK_EVENT_NAMES.flatMap((e) => [...this.forEvent(e)]);
  }
}
