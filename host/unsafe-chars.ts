/**
 * The characters of untrusted text (a plugin's, an MCP server's, a model's) that are not what they
 * look like, in one place: the CLI's printer (cli/printable.ts), the console page's script
 * (server/console-script.ts) and the plugin identity checks (plugins/identity.ts) share this set.
 *
 * - C0 controls but tab and newline, DEL, C1 controls: instructions to a terminal (`ESC [2K` erases
 *   a line, `ESC ]52` writes the clipboard), a carriage return that overwrites a line;
 * - the bidi marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A–E, U+2066–9): a
 *   line that reads as another;
 * - invisible format characters: zero-width space/joiners (U+200B–D), the word joiner and invisible
 *   operators (U+2060–4), the deprecated format controls (U+206A–F), U+180E, the BOM (U+FEFF),
 *   the interlinear annotation controls (U+FFF9–B) and the tag characters (U+E0000–E007F, text a
 *   model reads and a person does not see): two names that look equal and are not;
 * - the line and paragraph separators (U+2028/9): line breaks to some viewers and not to others;
 * - lone surrogates: not text at all (a UTF-8 encoder writes U+FFFD, a viewer may show nothing).
 */

const SET = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';
const TAGS = '\\udb40[\\udc00-\\udc7f]';
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/** The pattern's source, for the console page's script (a browser regex, no `u` flag needed). */
export const UNSAFE_CHARS_SOURCE = `[${SET}]|${TAGS}|${LONE_SURROGATE}`;

const UNSAFE = new RegExp(UNSAFE_CHARS_SOURCE, 'g');
/** The same, without `g`: `test` on a global regex would carry `lastIndex` from one call to the next. */
const ANY_UNSAFE = new RegExp(UNSAFE_CHARS_SOURCE);

/** Whether `text` holds one of the characters above. */
export function hasUnsafeChars(text: string): boolean {
  return ANY_UNSAFE.test(text);
}

/** The first unsafe character of `text` as its escape (`\u202e`), for an error message; undefined if none. */
export function firstUnsafeChar(text: string): string | undefined {
  const m = ANY_UNSAFE.exec(text);
  return m ? escapeChar(m[0]) : undefined;
}

/** One unsafe character (or tag character's surrogate pair) as `\uXXXX` (`\u{E0041}` for a tag). */
function escapeChar(c: string): string {
  const code = c.length === 2 ? (c.codePointAt(0) ?? 0) : c.charCodeAt(0);
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every unsafe character written as its escape; `text` itself when it has none. */
export function escapeUnsafeChars(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, escapeChar) : text;
}
