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

  /** Registers a handler of any kind (JS, WASM, shell). */
  addHandler(handler: HookHandler): string {
    assertHookEvent(handler.event);
    if (!(handler.timeoutMs > 0)) {
      throw new WasmhooksError('INVALID_OPTIONS', `hook ${handler.name}: timeoutMs must be > 0, got ${handler.timeoutMs}`);
    }
    if (handler.failurePolicy !== 'fail-closed' && handler.failurePolicy !== 'fail-open') {
      throw new WasmhooksError('INVALID_OPTIONS', `hook ${handler.name}: failurePolicy must be fail-closed or fail-open`);
    }
    if (this.get(handler.id)) throw new WasmhooksError('INVALID_OPTIONS', `a hook with id ${handler.id} is already registered`);
    this.byEvent.set(handler.event, [...this.forEvent(handler.event), handler]);
    return handler.id;
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
