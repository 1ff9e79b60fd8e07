/** Small text formatters shared by the renderer and the plugin commands. */
import type { HostEventOf } from '../events/types.js';
import type { HookInput } from '../hooks/types.js';
import { printable } from './printable.js';

/**
 * `text` on one line, cut to `max` characters, printable (printable.ts): every
 * caller shows plugin, model or MCP text with it, and JSON.stringify (labels
 * of nested input, replay's reasons) escapes C0 controls only, not DEL, C1 or
 * the bidi overrides (red12: those reached the terminal around printableDeep's depth).
 */
export function truncate(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return printable(one.length > max ? `${one.slice(0, max - 1)}…` : one);
}

/** `Bash(ls -la)`: a single string field shows bare, anything else as compact JSON; printable like truncate. */
export function toolLabel(name: string, input: unknown, max = 60): string {
  const tool = printable(name);
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const values = Object.values(input);
    if (values.length === 1 && typeof values[0] === 'string') return `${tool}(${truncate(values[0], max)})`;
    if (values.length === 0) return `${tool}()`;
  }
  return `${tool}(${truncate(JSON.stringify(input) ?? '', max)})`;
}

export function ms(value: number): string {
  if (value < 1) return `${value.toFixed(2)}ms`;
  if (value < 1000) return `${value.toFixed(value < 10 ? 1 : 0)}ms`;
  return `${(value / 1000).toFixed(1)}s`;
}

export function count(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `guard-shell deny (0.2ms, 1.3k fuel)`, with the failure when there was one. */
export function hookSummary(e: HostEventOf<'hook.end'>): string {
  const cost = [ms(e.durationMs), ...(e.fuelUsed !== undefined ? [`${count(e.fuelUsed)} fuel`] : [])].join(', ');
  const failure = e.failure ? ` ${e.failure.code}${e.failurePolicy ? `→${e.failurePolicy}` : ''}` : '';
  const rewrite = e.inputUpdated ? ' +rewrite' : '';
  const again = e.recheck ? ' re-check' : '';
  return `${e.hookName}${again} ${e.decision}${rewrite}${failure} (${cost})`;
}

/** One line naming a recorded hook input: `PreToolUse Bash(ls)`, `UserPromptSubmit "fix the bug"`. */
export function inputLabel(input: HookInput): string {
  switch (input.hook_event_name) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return `${input.hook_event_name} ${toolLabel(input.tool_name, input.tool_input, 40)}`;
    case 'UserPromptSubmit':
      return `UserPromptSubmit ${JSON.stringify(truncate(input.prompt, 40))}`;
    case 'PreToolBatch':
    case 'PostToolBatch':
      return `${input.hook_event_name} [${input.tool_calls.map((c) => c.tool_name).join(', ')}]`;
    default:
      return input.hook_event_name;
  }
}
