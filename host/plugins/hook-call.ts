/**
 * One call of a plugin's `hook` export as the sandbox sees it: its call
 * options (a borrowed input, the signal, a per-call timeout) and the check
 * that decodes the answer inside the call, so an unreadable answer counts
 * toward quarantine. One object per call, no closures: the sandbox calls
 * `check` and then `result` as methods of its options, and its promise
 * resolves to the hook result itself (a mapped call).
 */
import { violation } from '../hooks/decisions.js';
import type { HookEventName, HookOutput, HookResult, PluginLogLine } from '../hooks/types.js';
import { logLevel } from '../sandbox/plugin-messages.js';
import { decodeHookResponse } from '../protocol/codec.js';
import { returnCodeFailure } from './return-code.js';
import type { PluginFailure } from '../failure.js';
import type { CallOutcome, Limits, MappedCallOptions } from '../sandbox/types.js';

export class HookCall implements MappedCallOptions<HookResult> {
  /** The request is a view of the encoder's buffer (`encodeHookInputView`). */
  readonly borrowed = true;
  /** The answer, once `check` has read it. */
  #output: HookOutput | undefined = undefined;

  constructor(
    readonly event: HookEventName,
    readonly signal: AbortSignal | undefined,
    readonly limits: Partial<Pick<Limits, 'timeoutMs' | 'fuel'>> | undefined,
    /** The plugin: its name for the lines, its own listeners for a call outside a session. */
    private readonly owner: LogOwner,
    /** The chain's session (`HookRunContext.onLog`), if the call is a session's. */
    private readonly sink: ((line: PluginLogLine) => void) | undefined,
  ) {}

  /** A log line the plugin wrote during this call: to the call's session alone, else to the plugin's listeners. */
  onLog(level: string, message: string): void {
    if (this.sink) this.sink({ plugin: this.owner.name, level: logLevel(level), message });
    else this.owner.log(level, message);
  }

  check(bytes: Uint8Array, code: number | undefined): PluginFailure | null {
    // A failed call's output is not an answer, whatever it says (Extism's Rust host returns none).
    if (code !== 0) return returnCodeFailure(this.owner.name, 'hook', code);
    const decoded = decodeHookResponse(bytes);
    if (!decoded.ok) return decoded.failure;
    const output = decoded.value;
    this.#output = output;
    // A decision the event does not allow is as unreadable as garbage.
    const bad = violation(this.event, output);
    return bad ? { code: 'BAD_OUTPUT', message: bad } : null;
  }

  /** The call's outcome as a hook result: what the sandbox's promise resolves to (a mapped call). */
  result(outcome: CallOutcome): HookResult {
    if (!outcome.ok) return { ok: false, failure: outcome.failure, fuelUsed: outcome.fuelUsed };
    const output = this.#output;
    if (!output) return { ok: false, failure: { code: 'BAD_OUTPUT', message: 'the hook output was not decoded' }, fuelUsed: outcome.fuelUsed };
    return { ok: true, output, fuelUsed: outcome.fuelUsed };
  }
}

/** Where a hook call's log lines go when no session takes them (the plugin's own listeners). */
export interface LogOwner {
  readonly name: string;
  log(level: string, message: string): void;
}
