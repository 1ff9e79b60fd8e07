// A normalised event trace for conformance tests: one short line per event, times, ids
// and counts of deltas dropped, so a test states the promised order and content of a
// prompt as a list of strings (see docs/events.md). The same normaliser is used by the
// cross-runtime trace scenarios (test/xrt/trace.xrt.ts imports it through a relative path).
import type { HostEvent } from '../../host/events/types.js';
import type { GrammarViolation } from '../../host/events/grammar.js';

export interface TraceOptions {
  /** Keep `state.change` lines (default: dropped, they have their own tests). */
  states?: boolean;
}

/** One event as a line; `undefined` drops it. */
function line(e: HostEvent, options: TraceOptions): string | undefined {
  const sub = e.agentId !== undefined ? `[${e.agentId}] ` : '';
  switch (e.type) {
    case 'agent.start':
      return `${sub}agent.start`;
    case 'agent.end': {
      const r = e.result;
      const by = r.stoppedBy ? ` stoppedBy=${r.stoppedBy.event}:${r.stoppedBy.hookName}` : '';
      const err = r.error ? ` error=${r.error.code}` : '';
      return `${sub}agent.end ${r.subtype}${by}${err}`;
    }
    case 'turn.start':
      return `${sub}turn.start ${e.iteration}`;
    case 'turn.end':
      return `${sub}turn.end ${e.iteration} ${e.stopReason} calls=${e.toolCalls}`;
    case 'message.start':
      return `${sub}message.start`;
    case 'message.end':
      return `${sub}message.end ${e.stopReason}`;
    case 'text.delta':
    case 'thinking.delta':
    case 'tool.input.delta':
      return `${sub}${e.type}*`;
    case 'tool.call':
      return `${sub}tool.call ${e.name} ${e.toolUseId}`;
    case 'tool.progress':
      return `${sub}tool.progress* ${e.toolUseId}`;
    case 'tool.output':
      return `${sub}tool.output ${e.toolUseId} ${e.isError ? 'error' : 'ok'}`;
    case 'tool.denied':
      return `${sub}tool.denied ${e.toolUseId} ${e.source}${e.hookName ? ` by=${e.hookName}` : ''}`;
    case 'hook.start':
      return `${sub}hook.start ${e.event} ${e.kind}:${e.hookName}${e.recheck ? ' recheck' : ''}`;
    case 'hook.end': {
      const failure = e.failure ? ` failure=${e.failure.code}/${e.failurePolicy}` : '';
      // A WASM hook's end names its plugin and the fuel it used (the amount varies with the build: only its presence is traced).
      const wasm = e.plugin !== undefined ? ` plugin=${e.plugin}${e.fuelUsed !== undefined ? ' fuel' : ''}` : '';
      return `${sub}hook.end ${e.event} ${e.kind}:${e.hookName}${e.recheck ? ' recheck' : ''} ${e.decision}${failure}${wasm}`;
    }
    case 'permission.request':
      return `${sub}permission.request ${e.toolUseId}`;
    case 'permission.resolved':
      return `${sub}permission.resolved ${e.toolUseId} ${e.behavior} ${e.source}`;
    case 'state.change':
      return options.states ? `${sub}state ${e.to}` : undefined;
    case 'subagent.start':
      return `${sub}subagent.start ${e.agentType}`;
    case 'subagent.end':
      return `${sub}subagent.end ${e.agentType} ${e.result.subtype}${e.isError ? ' isError' : ''}`;
    case 'context.compacted':
      return `${sub}context.compacted ${e.trigger}`;
    case 'error':
      return `${sub}error ${e.code}`;
    case 'plugin.health':
    case 'plugin.log':
    case 'mcp.server.connected':
    case 'mcp.server.closed':
    case 'mcp.server.error':
    case 'events.dropped':
      return undefined;
    default: {
      const never: never = e;
      return `unknown ${JSON.stringify(never)}`;
    }
  }
}

/** The trace of `events`: consecutive equal `*` lines (deltas, progress) collapse into one. */
export function trace(events: readonly HostEvent[], options: TraceOptions = {}): string[] {
  const out: string[] = [];
  for (const e of events) {
    const l = line(e, options);
    if (l === undefined) continue;
    if (l.includes('*') && out[out.length - 1] === l) continue;
    out.push(l);
  }
  return out;
}

/** Broken grammar rules (host/events/grammar.ts, the one statement of them) as lines `#<index> <rule>: <message>`. */
export function violationLines(violations: readonly GrammarViolation[]): string[] {
  return violations.map((v) => `#${v.index} ${v.rule}: ${v.message}`);
}
