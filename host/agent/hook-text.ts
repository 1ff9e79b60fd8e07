/**
 * Hook text on its way to the model, in one place. A hook's additionalContext, a Stop or
 * SubagentStop block reason and a PostToolUse feedback are text a stranger's plugin wrote; the
 * model reads it inside a `<hook-context from="…">` frame that tells it who said it. Left as it
 * is, that text could close the frame early (`</hook-context>`) and open a fake one naming the
 * user, the host or another plugin. So the text is escaped (`&`, `<`, `>` as entities: no tag can
 * be spelled inside a frame) and the name is JSON-quoted (and escaped the same way) in the frame.
 */

import type { HookText } from '../hooks/types.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const MARKUP = /[&<>]/g;
const ANY_MARKUP = /[&<>]/;

/** `text` with `&`, `<` and `>` as entities: inert inside a frame, and still readable. */
export function escapeHookText(text: string): string {
  return ANY_MARKUP.test(text) ? text.replace(MARKUP, (c) => ENTITIES[c] ?? c) : text;
}

/** The name as a JSON string whose `<`, `>` and `&` are `\u` escapes (still valid JSON). */
function quotedName(name: string): string {
  return JSON.stringify(name).replace(MARKUP, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The frames of `parts`, one per hook's text, in order. `event`: set for a block reason (Stop,
 * SubagentStop), which asks the model to keep working rather than adding context.
 */
export function hookFrames(parts: readonly HookText[], event?: 'Stop' | 'SubagentStop'): string {
  const on = event === undefined ? '' : ` event="${event}"`;
  return parts.map((p) => `<hook-context from=${quotedName(p.from)}${on}>\n${escapeHookText(p.text)}\n</hook-context>`).join('\n');
}

/** Whether two hook texts are the same line from the same hook (the re-check gathers a line once). */
export function sameHookText(a: HookText, b: HookText): boolean {
  return a.from === b.from && a.text === b.text;
}
