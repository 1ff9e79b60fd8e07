/**
 * The Extism ABI's failure signal: an export's non-zero return code. Extism's
 * Rust host fails such a call (`Plugin::call`: "Returned non-zero exit code");
 * its JavaScript host drops the code, and a guard whose own logic failed
 * (returning 1, with or without output, without `error_set`) read as an empty
 * answer: "no objection". The sandbox runs any export and only reports the
 * code (`CallOutcome.returnCode`); every call of a plugin export the host
 * interprets (hook, tool, describe, an Extism plugin's export used as a tool)
 * judges it here, so a failed call meets the binding's failure policy.
 */
import type { PluginFailure } from '../failure.js';
import type { CallOptions } from '../sandbox/types.js';

/** Why a call of `plugin`'s export `fn` that returned `code` failed, or null for 0. */
export function returnCodeFailure(plugin: string, fn: string, code: number | undefined): PluginFailure | null {
  if (code === 0) return null;
  if (code === undefined) {
    // Only a call through Extism's own Plugin.call has no code (an Extism build the direct caller cannot drive).
    return {
      code: 'PLUGIN_ERROR',
      message: `plugin ${plugin}: the return code of export "${fn}" could not be read (Extism's Plugin.call drops it), so the call is not taken as a success`,
    };
  }
  return {
    code: 'PLUGIN_ERROR',
    message: `plugin ${plugin}: export "${fn}" returned ${code}; under the Extism ABI a non-zero return code is a failed call (the plugin set no error message)`,
  };
}

/** Call options whose `check` fails a call whose return code is not 0 (the caller reads the output after). */
export function returnCodeCheck(plugin: string, fn: string): Pick<CallOptions, 'check'> {
  return { check: (_output, code) => returnCodeFailure(plugin, fn, code) };
}
