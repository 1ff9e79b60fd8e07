/**
 * Turning whatever a plugin call threw into one typed `PluginFailure`. The
 * messages differ per engine (V8 says "unreachable", JavaScriptCore
 * "Unreachable code should not be executed"), so classification goes by error
 * class first and by text only where there is no class to go by.
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { ProcExit } from './host-call.js';
import { StopSignal } from './meter.js';
import type { FailureCode, PluginFailure } from './types.js';

const PLUGIN_ERROR_PREFIX = 'Plugin-originated error: ';

/** Where the error came from: building the instance, or running a call. */
export type Phase = 'load' | 'call';

export function failure(code: FailureCode, message: string): PluginFailure {
  return { code, message };
}

export function classify(error: unknown, phase: Phase): PluginFailure {
  if (error instanceof StopSignal) return failure(error.code, error.message);
  // exit(0) is a finished call; the engine turns it into one before this.
  if (error instanceof ProcExit) return failure('PLUGIN_ERROR', error.message);
  const message = messageOf(error);
  if (error instanceof RangeError && /call stack size/i.test(message)) {
    return failure('STACK_OVERFLOW', `the plugin overflowed the call stack (${message})`);
  }
  if (error instanceof RangeError && /allocat|array buffer length/i.test(message)) {
    return failure('MEMORY_LIMIT', `the host could not allocate memory the plugin asked for (${message})`);
  }
  if (error instanceof WebAssembly.RuntimeError) {
    return failure('TRAP', message);
  }
  if (message.startsWith(PLUGIN_ERROR_PREFIX)) {
    const own = message.slice(PLUGIN_ERROR_PREFIX.length);
    if (/^var memory limit exceeded/.test(own)) return failure('MEMORY_LIMIT', own);
    return failure('PLUGIN_ERROR', own);
  }
  if (phase === 'load') {
    return failure('LOAD_FAILED', `the plugin could not be instantiated: ${message}`);
  }
  // A host function failing on the plugin's arguments (a bad block address,
  // say) is the plugin's fault, and stops it like a trap does.
  return failure('TRAP', `the plugin made an invalid host call: ${message}`);
}

/** A module that cannot be instantiated is refused at load, its failure attached as `cause`. */
export function loadFailed(name: string, failure: PluginFailure): WasmhooksError {
  const detail = failure.code === 'LOAD_FAILED' ? failure.message : `${failure.code}: ${failure.message}`;
  return new WasmhooksError('LOAD_FAILED', `${name} could not be loaded: ${detail}`, { cause: failure });
}

/**
 * Failures after which the instance may be corrupt (its stack was unwound
 * mid-flight): it is thrown away and rebuilt before the next call.
 */
export function corruptsInstance(code: FailureCode): boolean {
  switch (code) {
    case 'TIMEOUT':
    case 'FUEL_EXHAUSTED':
    case 'MEMORY_LIMIT':
    case 'TRAP':
    case 'STACK_OVERFLOW':
    case 'ABORTED':
    case 'LOAD_FAILED':
      return true;
    case 'BAD_OUTPUT':
    case 'OUTPUT_TOO_LARGE':
    case 'INPUT_TOO_LARGE':
    case 'PROTOCOL_MISMATCH':
    case 'QUARANTINED':
    case 'PLUGIN_ERROR':
    case 'MISSING_EXPORT':
      return false;
    default:
      return assertNever(code);
  }
}

/**
 * Failures that count toward quarantine: the plugin misbehaved. The caller's
 * own doing (too much input, an abort, a missing export) and a plugin that
 * deliberately reports an error do not.
 */
export function countsAgainstPlugin(code: FailureCode): boolean {
  switch (code) {
    case 'TIMEOUT':
    case 'FUEL_EXHAUSTED':
    case 'MEMORY_LIMIT':
    case 'TRAP':
    case 'STACK_OVERFLOW':
    case 'LOAD_FAILED':
    case 'BAD_OUTPUT':
    case 'OUTPUT_TOO_LARGE':
    case 'PROTOCOL_MISMATCH':
      return true;
    case 'ABORTED':
    case 'INPUT_TOO_LARGE':
    case 'QUARANTINED':
    case 'PLUGIN_ERROR':
    case 'MISSING_EXPORT':
      return false;
    default:
      return assertNever(code);
  }
}

function assertNever(value: never): never {
  throw new Error(`unhandled failure code ${String(value)}`);
}
