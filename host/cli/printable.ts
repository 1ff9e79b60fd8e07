/**
 * Text from plugins, MCP servers and models made safe for a terminal. Deny
 * reasons, log lines, progress, tool output and model text reach the
 * operator's terminal as they are; a control character there is an
 * instruction to the terminal, not text: `ESC [2K` erases the line a deny was
 * on, `ESC ]52` writes the clipboard on some terminals, `ESC ]8` makes a
 * link, a carriage return or a bidi override makes a line read as another.
 * These are shown as `\u001b`-style escapes instead; newlines and tabs stay.
 * The set (zero-width and other invisible characters, lone surrogates, …) is host/unsafe-chars.ts.
 */
import { escapeUnsafeChars, hasUnsafeChars } from '../unsafe-chars.js';

/** `text` with every unsafe character (the set of host/unsafe-chars.ts) written as its `\uXXXX` escape. */
export function printable(text: string): string {
  if (!hasUnsafeChars(text)) return text;
  // A Windows line end is a line end, not a carriage return to show.
  return escapeUnsafeChars(text.replaceAll('\r\n', '\n'));
}

/**
 * A copy of `value` whose strings are printable, down to `depth` levels of
 * objects and arrays (an event's own fields, a tool input's fields, a
 * failure's message, the result's text); `value` itself when nothing needed it.
 */
export function printableDeep<T>(value: T, depth = 3): T {
  if (typeof value === 'string') return printable(value) as T;
  if (depth === 0 || typeof value !== 'object' || value === null) return value;
  let copy: Record<string, unknown> | unknown[] | undefined;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  for (const [key, item] of entries) {
    const clean = printableDeep(item, depth - 1);
    if (clean === item) continue;
    copy ??= Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
    (copy as Record<string | number, unknown>)[key] = clean;
  }
  return (copy ?? value) as T;
}
