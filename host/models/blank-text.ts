/** What request builders do with text that carries nothing, one rule for every provider. */

/**
 * Text that carries nothing for a model: empty, or only whitespace. Providers refuse it as a block of its
 * own (Anthropic: "text content blocks must contain non-whitespace text"; Gemini: an empty text
 * parameter), and once in the history it refused every later turn of the session. The Anthropic and AI SDK
 * request builders leave it out (the AI SDK's own converters pass it on to whichever provider), and a
 * message left with nothing is left out whole. Chat Completions takes `""` and keeps it.
 */
export const isBlankText = (text: string): boolean => text.trim() === '';

/**
 * A tool result's text as a request carries it. Anthropic refuses a failed result without text
 * ("tool_result: content cannot be empty if is_error is true"), directly or through the AI SDK, on that
 * and every later turn: a blank one (a hook's deny without a reason, a tool's bare failure) says which
 * tool failed instead.
 */
export function toolResultText(message: { toolName: string; content: string; isError: boolean }): string {
  return message.isError && isBlankText(message.content) ? `${message.toolName} failed without a message` : message.content;
}
