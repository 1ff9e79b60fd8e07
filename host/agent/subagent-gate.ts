/**
 * What watchers see of a sub-agent while a PostToolUse hook reviews its `agent`
 * call (a redactor matched to the sub-agent tool). The hook rewrites the
 * call's output (the sub-agent's final answer) before the parent model, the
 * conversation or `tool.output` carry it; but the sub-agent's own events go out
 * live, before any hook ran: its text as it streams, its tools' inputs, outputs,
 * progress and log lines, its final text in `subagent.end`. A secret the
 * redactor takes out of the answer would reach every watcher (SSE, the event
 * log, MCP) through them first. So while such a hook applies to the call (as
 * progress-gate.ts decides for an ordinary tool's progress), the sub-agent's
 * events still go out, in their order and shape (the event grammar holds), with
 * the text they carry replaced: deltas and progress and log lines withheld,
 * inputs, nested sub-agents' prompts, hooks' and denials' reasons emptied or replaced, outputs and final texts
 * replaced by one fixed note. Structure
 * stays visible (turns, which tools ran, errors' codes, permission questions:
 * a person must see what they allow).
 */
import type { HostEvent } from '../events/types.js';
import { applies } from '../hooks/chain.js';
import type { HookRegistry } from '../hooks/registry.js';

/** The text that stands in for a reviewed sub-agent's own text. */
export const SUBAGENT_WITHHELD = '[withheld: a PostToolUse hook reviews this sub-agent\'s output]';

export class SubagentGate {
  #reviewed = false;

  constructor(
    private readonly registry: HookRegistry,
    private readonly toolName: string,
    private readonly sessionId: string,
  ) {}

  /** The event to emit in place of `e` (the same object, rewritten), or undefined to withhold it. */
  pass(e: HostEvent): HostEvent | undefined {
    // Asked at each event, and once reviewed stays so (progress-gate.ts: a hook may come to apply mid-call).
    this.#reviewed ||= this.registry.forEvent('PostToolUse').some((h) => applies(h, this.toolName, this.sessionId));
    if (!this.#reviewed) return e;
    switch (e.type) {
      case 'text.delta':
      case 'thinking.delta':
      case 'tool.input.delta':
      case 'tool.progress':
      case 'plugin.log':
        return undefined;
      case 'message.end':
        e.text = e.text === '' ? '' : SUBAGENT_WITHHELD;
        // A new array of new parts: the conversation's own message is not touched.
        e.content = e.content.map((part) => {
          switch (part.type) {
            case 'text':
            case 'thinking':
              return { type: part.type, text: SUBAGENT_WITHHELD };
            case 'tool_call':
              return { ...part, input: {} };
            default: {
              const never: never = part;
              return never;
            }
          }
        });
        return e;
      case 'tool.call':
        e.input = {};
        return e;
      case 'tool.output':
        e.content = SUBAGENT_WITHHELD;
        return e;
      case 'hook.end':
        // An inner hook's texts may quote what it judged (a tool's output, an input the sub-agent wrote).
        if (e.additionalContext !== undefined) e.additionalContext = SUBAGENT_WITHHELD;
        if (e.systemMessage !== undefined) e.systemMessage = SUBAGENT_WITHHELD;
        if (e.reason !== undefined) e.reason = SUBAGENT_WITHHELD;
        return e;
      case 'tool.denied':
        e.reason = SUBAGENT_WITHHELD;
        return e;
      case 'subagent.start':
        // A nested sub-agent's prompt is text this sub-agent wrote (its `agent` call's input, emptied above) (rv15).
        e.prompt = e.prompt === '' ? '' : SUBAGENT_WITHHELD;
        return e;
      case 'subagent.end':
        e.result = { ...e.result, text: e.result.text === '' ? '' : SUBAGENT_WITHHELD };
        return e;
      default:
        return e;
    }
  }
}
