/**
 * Why a plugin call produced no usable output, as data, and the health that
 * repeated failures lead to. Every kind of hook (WASM, JS, shell) and every
 * tool reports its failures in this shape; the failure policy turns one into
 * a decision and an event shows it. A leaf: imports nothing, so events,
 * hooks, tools and the sandbox can all depend on it.
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

/**
 * `healthy`: the last call succeeded (or none failed yet). `degraded`: recent
 * calls failed, fewer than `maxConsecutiveFailures` in a row. `quarantined`:
 * calls fail fast with QUARANTINED until the backoff ends; then one probe call
 * is let through, and its outcome decides the next state.
 */
export type Health = 'healthy' | 'degraded' | 'quarantined';
