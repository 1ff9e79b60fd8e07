/**
 * Text that carries nothing for a model: empty, or only whitespace. Providers refuse it as a block of its
 * own (Anthropic: "text content blocks must contain non-whitespace text"; Gemini: an empty text
 * parameter), and once in the history it refused every later turn of the session. The Anthropic and AI SDK
 * request builders leave it out (the AI SDK's own converters pass it on to whichever provider), and a
 * message left with nothing is left out whole. Chat Completions takes `""` and keeps it.
 */
export const isBlankText = (text: string): boolean => text.trim() === '';
