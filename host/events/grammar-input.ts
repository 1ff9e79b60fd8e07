/**
 * The grammar checker's (grammar.ts) guard against what is not an event stream: it is a public
 * export fed recorded, parsed streams, so a wrong argument is a typed error and an entry that is
 * no event a violation, never a TypeError from deep inside the rules.
 */
import { WasmhooksError } from '../errors.js';

/** Throws `INVALID_OPTIONS` unless `events` is an array and `options` are the checker's. */
export function assertGrammarInput(events: unknown, options: unknown): void {
  if (!Array.isArray(events)) throw new WasmhooksError('INVALID_OPTIONS', `eventGrammarViolations: events must be an array of events, got ${events === null ? 'null' : typeof events}`);
  const ok = typeof options === 'object' && options !== null;
  const { span, gaps } = (ok ? options : {}) as { span?: unknown; gaps?: unknown };
  if (!ok || (span !== undefined && span !== 'prompt' && span !== 'session') || (gaps !== undefined && typeof gaps !== 'boolean')) {
    throw new WasmhooksError('INVALID_OPTIONS', "eventGrammarViolations: options are { span?: 'prompt' | 'session', gaps?: boolean }");
  }
}

/** Why an entry of a (parsed, untrusted) list is not an event at all, or undefined when it has an event's shape. */
export function notAnEvent(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return e === null ? 'null' : Array.isArray(e) ? 'an array' : typeof e;
  const { type, seq, sessionId, agentId } = e as Record<string, unknown>;
  if (typeof type !== 'string') return 'its type is not a string';
  if (sessionId !== undefined && typeof sessionId !== 'string') return 'its sessionId is not a string';
  if (agentId !== undefined && typeof agentId !== 'string') return 'its agentId is not a string';
  if (typeof seq === 'symbol' || typeof seq === 'object') return 'its seq is not a number';
  return undefined;
}
