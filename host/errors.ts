/**
 * Host errors: something the embedding application or its configuration got
 * wrong (a bad option, a plugin that cannot be loaded). Failures *inside* a
 * plugin call are data (`PluginFailure`), never thrown past the loop.
 */
export type WasmhooksErrorCode =
  | 'INVALID_OPTIONS'
  | 'INVALID_CONFIG'
  | 'INVALID_WASM'
  | 'MISSING_EXPORT'
  | 'PROTOCOL_MISMATCH'
  | 'BAD_OUTPUT'
  /** A plugin's name, version or description is not one the host can show as it is (plugins/identity.ts). */
  | 'INVALID_PLUGIN_IDENTITY'
  /** A plugin or MCP server tool takes a name the host keeps for its own tools (tools/registry.ts). */
  | 'RESERVED_TOOL_NAME'
  | 'LOAD_FAILED'
  | 'INTEGRITY'
  | 'GRANT_DENIED'
  | 'NOT_CONSENTED'
  | 'SIGNATURE'
  | 'UNKNOWN_HOOK_EVENT'
  | 'SESSION_BUSY'
  | 'SESSION_CLOSED'
  | 'NOT_FOUND'
  /** The session store (a data directory, Redis) could not be read or written; retry once it is back. */
  | 'STORE_UNAVAILABLE'
  | 'MODEL_ERROR';

/**
 * An error raised by the host, with a stable `code` to branch on and a
 * message that says what to do.
 *
 * @example
 * try { await loadPlugin({ path: 'guard.wasm' }) }
 * catch (e) { if (e instanceof WasmhooksError && e.code === 'PROTOCOL_MISMATCH') … }
 */
export class WasmhooksError extends Error {
  override readonly name = 'WasmhooksError';
  constructor(
    readonly code: WasmhooksErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The message of any thrown value, for building error text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Calls a callback whose contract is "must not throw" (a listener, a log or
 * progress sink). One that throws anyway is ignored: it must not break the
 * call or the loop that reports to it.
 */
export function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Ignored on purpose; see above.
  }
}
