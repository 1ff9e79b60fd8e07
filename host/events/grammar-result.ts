/**
 * The grammar's `error` and `result` rules (docs/events.md): which codes an `error` event may carry,
 * and how an `agent.end`'s result must agree with the prompt's events before it.
 */
import type { ScopeState } from './grammar-scope.js';
import type { Checker } from './grammar-tools.js';
import type { AgentErrorCode, HostEventOf } from './types.js';

/** Every code an `error` event (and a result's `error`) may carry: `AgentErrorCode`, checked exhaustive by the compiler. */
const ERROR_CODES: Readonly<Record<AgentErrorCode, true>> = {
  AUTH: true, RATE_LIMITED: true, BAD_REQUEST: true, OVERLOADED: true, NETWORK: true, BAD_STREAM: true, SCRIPT_EXHAUSTED: true, MODEL_TIMEOUT: true,
  INVALID_OPTIONS: true, INVALID_CONFIG: true, INVALID_WASM: true, MISSING_EXPORT: true, PROTOCOL_MISMATCH: true, BAD_OUTPUT: true, INVALID_PLUGIN_IDENTITY: true, RESERVED_TOOL_NAME: true,
  LOAD_FAILED: true, INTEGRITY: true, GRANT_DENIED: true, NOT_CONSENTED: true, SIGNATURE: true, UNKNOWN_HOOK_EVENT: true,
  SESSION_BUSY: true, SESSION_CLOSED: true, NOT_FOUND: true, STORE_UNAVAILABLE: true, MODEL_ERROR: true,
  INTERNAL: true, STOP_HOOK_CAP: true, COMPACTION_FAILED: true, CONVERSATION_TOO_LARGE: true,
};

/** Whether `code` is an `AgentErrorCode`. */
export function isErrorCode(code: string): code is AgentErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** The `result` rule: an `agent.end`'s result agrees with the events of its prompt. */
export function checkResult(c: Checker, r: HostEventOf<'agent.end'>['result'], s: ScopeState): void {
  if (r.subtype === 'aborted') c.aborted = true;
  if ((r.subtype === 'error_during_execution') !== (r.error !== undefined)) c.fail('result', `result ${r.subtype} ${r.error ? 'with' : 'without'} an error`);
  if (r.error && r.subtype === 'error_during_execution' && s.terminal !== r.error.code) c.fail('result', `result error ${r.error.code}, but the last error event was ${s.terminal ?? 'none'} (or other events followed it)`);
  if (r.subtype !== 'error_during_execution' && r.subtype !== 'aborted' && s.terminal !== undefined) c.fail('result', `result ${r.subtype} right after error ${s.terminal}`);
  if (r.stoppedBy && r.subtype !== 'success') c.fail('result', `stoppedBy on a ${r.subtype} result`);
  // maxTurns bounds a prompt across Stop blocks too (docs/hooks.md): a block with no model call left ends it so.
  if (r.subtype === 'error_max_turns' && s.lastTurnCalls === 0 && !s.lastTurnBlocked) c.fail('result', 'error_max_turns, but the last turn asked for no tool and no Stop hook blocked it');
  if (!(r.turns >= s.modelCalls && r.turns <= s.turnStarts)) c.fail('result', `result.turns ${r.turns}, but ${s.modelCalls} model messages in ${s.turnStarts} turns`);
}
