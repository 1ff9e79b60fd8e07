/**
 * The protocol's `HookEvent` values: the host's hook events in enum order
 * (value = index in HOOK_EVENT_NAMES + 1; 0 is unspecified). One table for
 * the request encoder (hook-request.ts) and the codec.
 */
import { HOOK_EVENT_NAMES, type HookEventName } from '../hooks/types.js';

const WIRE = new Map<string, number>(HOOK_EVENT_NAMES.map((name, i) => [name, i + 1]));

export function eventToWire(name: HookEventName): number {
  return WIRE.get(name) ?? 0;
}

export function eventFromWire(value: number): HookEventName | undefined {
  return HOOK_EVENT_NAMES[value - 1];
}
