/**
 * The longest texts a hook's answer may carry, whatever kind of hook gave it (a WASM plugin's HookResponse, a JS
 * hook, a shell hook's JSON, a remote client's hook callback). Each is shown to every watcher of the session and
 * (a reason, a context) to the model: without a cap one answer put up to a megabyte (a plugin's `maxOutputBytes`;
 * a JS or shell hook's or a remote client's, more) into every event and the conversation. Longer is refused as a
 * whole (BAD_OUTPUT, so the hook's failure policy decides: a guard fails closed), never cut.
 */

/**
 * The longest `reason` and `systemMessage` (`system_message` on the wire), in characters. guard-shell quotes the
 * command it judged, so a 100 KB heredoc's reason is ~100k.
 */
export const HOOK_REASON_MAX_CHARS = 131_072;
/** The longest `additionalContext` (`additional_context`), in characters. */
export const HOOK_CONTEXT_MAX_CHARS = 262_144;

/** What is wrong when a hook answer's texts pass their caps; `names` spells the fields (the wire's or the JS names). */
export function hookTextOverCap(
  texts: { reason?: string | null | undefined; systemMessage?: string | null | undefined; additionalContext?: string | null | undefined },
  names: { reason: string; systemMessage: string; additionalContext: string } = { reason: 'reason', systemMessage: 'systemMessage', additionalContext: 'additionalContext' },
): string | undefined {
  for (const [key, max] of [['reason', HOOK_REASON_MAX_CHARS], ['systemMessage', HOOK_REASON_MAX_CHARS], ['additionalContext', HOOK_CONTEXT_MAX_CHARS]] as const) {
    const value = texts[key];
    if (typeof value === 'string' && value.length > max) {
      const field = names[key];
      return `hook output ${field} is ${value.length} characters, above its cap of ${max}: answer with a shorter ${field} (the hook's answer is refused as a whole)`;
    }
  }
  return undefined;
}
