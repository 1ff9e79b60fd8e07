/**
 * Turning whatever a plugin call threw into one typed `PluginFailure`, and
 * what each failure code means for the instance and for the module's health
 * (one table, `FAILURE_RULES`, which docs/sandbox.md mirrors row by row).
 *
 * The messages differ per engine (V8 says "unreachable", JavaScriptCore
 * "Unreachable code should not be executed"), so classification goes by error
 * class first and by text only where there is no class to go by.
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { ProcExit } from './host-call.js';
import { StopSignal } from './meter.js';
import type { FailureCode, PluginFailure } from '../failure.js';

const PLUGIN_ERROR_PREFIX = 'Plugin-originated error: ';
/**
 * Failure messages carry plugin-supplied text (an `error_set` string, a trap
 * message); they are cut to this many characters so a plugin cannot make the
 * host hold, log or send megabytes of it.
 */
const MAX_FAILURE_MESSAGE_CHARS = 4_096;

/** Where the error came from: building the instance, or running a call. */
export type Phase = 'load' | 'call';

/**
 * What a failure does to the module's health: `counts` toward quarantine (the
 * plugin misbehaved), `resets` the count (the plugin ran to completion and
 * reported an error of its own), or `neutral` (the caller's doing, or no call).
 */
type HealthEffect = 'counts' | 'resets' | 'neutral';

export interface FailureRule {
  /** The instance may be corrupt (its stack was unwound mid-flight): rebuild it before the next call. */
  rebuild: boolean;
  health: HealthEffect;
}

const rule = (rebuild: boolean, health: HealthEffect): FailureRule => Object.freeze({ rebuild, health });

/** Every failure code's consequences. docs/sandbox.md's failure table says the same (a test checks it). */
export const FAILURE_RULES: Readonly<Record<FailureCode, FailureRule>> = Object.freeze({
  TIMEOUT: rule(true, 'counts'),
  FUEL_EXHAUSTED: rule(true, 'counts'),
  MEMORY_LIMIT: rule(true, 'counts'),
  TRAP: rule(true, 'counts'),
  STACK_OVERFLOW: rule(true, 'counts'),
  // A returned output past the cap leaves the instance intact; a stop mid-call
  // (too much progress) unwinds it, and every stop rebuilds (see Engine).
  OUTPUT_TOO_LARGE: rule(false, 'counts'),
  PLUGIN_ERROR: rule(false, 'resets'),
  MISSING_EXPORT: rule(false, 'neutral'),
  INPUT_TOO_LARGE: rule(false, 'neutral'),
  // An abort is the caller's decision; mid-call it still unwinds the plugin.
  ABORTED: rule(true, 'neutral'),
  QUARANTINED: rule(false, 'neutral'),
  LOAD_FAILED: rule(true, 'counts'),
  BAD_OUTPUT: rule(false, 'counts'),
  PROTOCOL_MISMATCH: rule(false, 'counts'),
});

/**
 * Thrown by one of our host functions that refuses what the plugin asked
 * (memory or variables beyond a cap, too much progress text, a network call
 * without a grant). Like a `StopSignal` it is final: the engine records it and
 * ends the call with it, whatever the plugin does after catching it.
 */
export class HostRefusal extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'HostRefusal';
  }
}

export function failure(code: FailureCode, message: string): PluginFailure {
  return { code, message: clip(message) };
}

/** The outcome (a failed `CallOutcome`) of a call that a bug of ours around the plugin ended: never a throw to the caller. */
export function sandboxError(error: unknown): { ok: false; failure: PluginFailure; fuelUsed: number; durationMs: number } {
  return { ok: false, failure: failure('TRAP', `sandbox error: ${messageOf(error)}`), fuelUsed: 0, durationMs: 0 };
}

/** Cut plugin-supplied text to `MAX_FAILURE_MESSAGE_CHARS`, saying so. */
export function clip(message: string): string {
  if (message.length <= MAX_FAILURE_MESSAGE_CHARS) return message;
  const cut = message.length - MAX_FAILURE_MESSAGE_CHARS;
  return `${message.slice(0, MAX_FAILURE_MESSAGE_CHARS)}… (${cut} more characters cut)`;
}

/** What an `error_set` block is read with, as Extism reads it (`PluginOutput.string()`). */
const decoder = new TextDecoder();
/** A UTF-16 unit is at most 3 bytes of UTF-8: a block this long decodes to no more than `clip` would keep and cut. */
const MAX_DECODED_ERROR_BYTES = MAX_FAILURE_MESSAGE_CHARS * 3;

/**
 * The text of the error a plugin set (its `error_set` block). A plugin may
 * set megabytes: beyond what `clip` keeps, the block is cut as bytes (at a
 * character boundary) before it is decoded, so the host never builds a
 * string of it, and the result fits `clip` with its note.
 */
export function errorText(bytes: Uint8Array): string {
  if (bytes.byteLength <= MAX_DECODED_ERROR_BYTES) return decoder.decode(bytes);
  // Room for the note; decoding n bytes gives at most n UTF-16 units.
  let end = MAX_FAILURE_MESSAGE_CHARS - 64;
  // Back to the start of the character the cut would split (continuation bytes are 10xxxxxx).
  for (let back = 0; back < 3 && (bytes[end]! & 0xc0) === 0x80; back++) end--;
  return `${decoder.decode(bytes.subarray(0, end))}… (${bytes.byteLength - end} more bytes cut)`;
}

export function classify(error: unknown, phase: Phase): PluginFailure {
  if (error instanceof StopSignal || error instanceof HostRefusal) return failure(error.code, error.message);
  // exit(0) is a finished call; the engine turns it into one before this.
  if (error instanceof ProcExit) return failure('PLUGIN_ERROR', error.message);
  if (isWasmException(error)) {
    // Only the plugin's own `throw` makes one: our host functions throw JS errors.
    return failure('TRAP', 'the plugin threw a wasm exception that it did not catch (WebAssembly.Exception)');
  }
  const message = messageOf(error);
  if (isStackOverflow(error)) {
    return failure('STACK_OVERFLOW', `the plugin overflowed the call stack (${message})`);
  }
  if (error instanceof RangeError && /allocat|array buffer length|out of memory/i.test(message)) {
    return failure('MEMORY_LIMIT', `the host could not allocate memory the plugin asked for (${message})`);
  }
  if (error instanceof WebAssembly.RuntimeError) {
    return failure('TRAP', message);
  }
  if (message.startsWith(PLUGIN_ERROR_PREFIX)) {
    const own = message.slice(PLUGIN_ERROR_PREFIX.length);
    return failure('PLUGIN_ERROR', own);
  }
  if (phase === 'load') {
    return failure('LOAD_FAILED', `the plugin could not be instantiated: ${message}`);
  }
  // A host function failing on the plugin's arguments (a bad block address,
  // say) is the plugin's fault, and stops it like a trap does.
  return failure('TRAP', `the plugin made an invalid host call: ${message}`);
}

/** The engine's "out of stack" (V8: "Maximum call stack size exceeded", JavaScriptCore the same with a period). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size|stack overflow/i.test(error.message);
}

function isWasmException(error: unknown): boolean {
  const Exception = (WebAssembly as { Exception?: abstract new (...args: never[]) => unknown }).Exception;
  return typeof Exception === 'function' && error instanceof Exception;
}

/** A module that cannot be instantiated is refused at load, its failure attached as `cause`. */
export function loadFailed(name: string, failure: PluginFailure): WasmhooksError {
  const detail = failure.code === 'LOAD_FAILED' ? failure.message : `${failure.code}: ${failure.message}`;
  return new WasmhooksError('LOAD_FAILED', `${name} could not be loaded: ${detail}`, { cause: failure });
}

/** Failures after which the instance may be corrupt: it is thrown away and rebuilt before the next call. */
export function corruptsInstance(code: FailureCode): boolean {
  return FAILURE_RULES[code].rebuild;
}

const PAGE = 65_536;

/** A trap right after the memory hit its cap (`maxMemoryPages`) is the cap's doing: say so. */
export function explainTrap(f: PluginFailure, memory: WebAssembly.Memory | null, cap: number): PluginFailure {
  if (f.code !== 'TRAP' || !memory) return f;
  const pages = memory.buffer.byteLength / PAGE;
  if (pages < cap) return f;
  return failure(
    'MEMORY_LIMIT',
    `the plugin's memory reached its cap of ${cap} pages (${cap * 64} KiB, maxMemoryPages) and it then trapped: ${f.message}`,
  );
}
