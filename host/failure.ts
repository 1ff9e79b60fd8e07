/**
 * Why a plugin call produced no usable output, as data. Every kind of hook
 * (WASM, JS, shell) and every tool reports its failures in this shape; the
 * failure policy turns one into a decision and an event shows it. A leaf:
 * imports nothing, so events, hooks and the sandbox can all depend on it.
 */

/** Why a plugin call produced no usable output. Never a decision by itself. */
export type FailureCode =
  | 'TIMEOUT'
  | 'FUEL_EXHAUSTED'
  | 'MEMORY_LIMIT'
  | 'TRAP'
  | 'STACK_OVERFLOW'
  | 'BAD_OUTPUT'
  | 'OUTPUT_TOO_LARGE'
  | 'INPUT_TOO_LARGE'
  | 'ABORTED'
  | 'PROTOCOL_MISMATCH'
  | 'LOAD_FAILED'
  | 'QUARANTINED'
  /** The plugin reported an error itself (Extism `error_set`); the message is its own. */
  | 'PLUGIN_ERROR'
  /** The called function is not exported by the module. */
  | 'MISSING_EXPORT';

export interface PluginFailure {
  code: FailureCode;
  /** What happened, for a person (the wasm trap message for TRAP). */
  message: string;
}
