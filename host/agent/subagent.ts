/**
 * Sub-agents: the `agent` tool runs a nested `runLoop` with its own
 * conversation, system prompt, tools and model, sharing the host's hooks and
 * permissions (a guard registered once covers the whole tree) and the
 * parent's abort signal. Order for one call: PreToolUse[agent] → SubagentStart
 * → subagent.start → the sub-agent's hooks and events → SubagentStop →
 * subagent.end → PostToolUse[agent] → tool.output, on an abort too (the call
 * waits for the sub-agent to wind down, see `windsDownOnAbort`). Its events carry its
 * `agentId` and the `parentToolUseId` of the call; its `agent.start`/`agent.end`
 * are replaced by `subagent.start`/`subagent.end`.
 */
import { z } from 'zod';
import type { AgentResult, Emit, HostEvent } from '../events/types.js';
import { dispatch } from '../hooks/dispatch.js';
import type { HookCommon } from '../hooks/types.js';
import type { ToolHandler, ToolOutcome } from '../tools/types.js';
import type { ToolDefinition } from '../models/types.js';
import type { RegisteredTool } from '../tools/registry.js';
import { childSettings, dispatchContext, loopConfig, reconfigured, type AgentDefinition, type LoopConfig, type LoopSettings, type RunLoop, type SubagentSettings, type ToolSet } from './config.js';
import { hookInput } from './hook-input.js';
import { StateMachine } from './state.js';
import { SubagentGate } from './subagent-gate.js';
import { escapeHookText, hookFrames } from './hook-text.js';

/** The tool's name, as the model sees it. */
import { AGENT_TOOL } from '../tools/reserved.js';

export { AGENT_TOOL };

/** The agent tools this file made (never an app's tool, whatever its name). */
const agentTools = new WeakSet<ToolHandler>();

/**
 * Whether the loop should wait for this tool after an abort instead of racing it: only our
 * own agent tool, whose sub-agent loop honours the signal at every step (its model stream,
 * hooks, permission questions and tools are each raced against it), so that the
 * sub-agent's last events and `subagent.end` come before the agent call's `tool.output`.
 * An app's tool is always raced: a tool that ignores the signal never holds the loop.
 */
export function windsDownOnAbort(handler: ToolHandler): boolean {
  return agentTools.has(handler);
}

/**
 * Offers the `agent` tool to this loop when sub-agents are configured.
 * `runLoop` is passed in (not imported) so the loop and this file do not import each other.
 */
export function withAgentTool(config: LoopConfig, emit: Emit, children: Set<Promise<unknown>>, runLoop: RunLoop): LoopConfig {
  const sub = config.subagents;
  const names = Object.keys(sub?.agents ?? {});
  if (!sub || names.length === 0) return config;
  const tool = agentTool(config, sub, names, emit, children, runLoop);
  agentTools.add(tool);
  // Past the depth limit the tool is not offered, but a call still gets the reason.
  const offered = sub.depth < sub.maxDepth;
  const registered: RegisteredTool = { handler: tool, validate: (input) => (tool.validate as NonNullable<ToolHandler['validate']>)(input) };
  const definition: ToolDefinition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  let from: ToolDefinition[] | undefined;
  let defs: ToolDefinition[] = [];
  const tools: ToolSet = {
    get: (name) => (name === AGENT_TOOL ? registered : config.tools.get(name)),
    definitions() {
      const base = config.tools.definitions();
      if (base !== from) {
        from = base;
        defs = offered ? [...base.filter((d) => d.name !== AGENT_TOOL), definition] : base;
      }
      return defs;
    },
  };
  return reconfigured(config, { tools });
}

const inputSchemaOf = (names: string[]) =>
  z.object({
    subagent_type: z.enum(names as [string, ...string[]]).describe('Which sub-agent to start'),
    prompt: z.string().min(1).describe('The task, with everything the sub-agent needs to know: it does not see this conversation'),
    description: z.string().optional().describe('A short label for the task (3-5 words)'),
  });

function agentTool(parent: LoopConfig, sub: SubagentSettings, names: string[], emit: Emit, children: Set<Promise<unknown>>, runLoop: RunLoop): ToolHandler {
  const schema = inputSchemaOf(names);
  const inputSchema = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete inputSchema.$schema;
  const list = names.map((n) => `- ${n}: ${sub.agents[n]?.description ?? ''}`).join('\n');
  return {
    name: AGENT_TOOL,
    description: `Start a sub-agent on a task. It works on its own, with its own tools, and answers with its final text.\nAvailable sub-agents:\n${list}`,
    inputSchema,
    kind: 'js',
    validate(input) {
      const r = schema.safeParse(input);
      return r.success ? { ok: true, value: r.data } : { ok: false, message: z.prettifyError(r.error) };
    },
    async run(input, ctx) {
      if (sub.depth >= sub.maxDepth) {
        return {
          isError: true,
          content: `${AGENT_TOOL}: this agent is a sub-agent at depth ${sub.depth} and may not start another one (maxAgentDepth is ${sub.maxDepth}; raise it in createHost to allow deeper nesting)`,
        };
      }
      const { subagent_type: name, prompt } = input as z.infer<typeof schema>;
      const job = runSubagent(runLoop, parent, sub, emit, name, prompt, ctx.toolUseId, ctx.context, ctx.signal);
      children.add(job);
      try {
        return await job;
      } finally {
        children.delete(job);
      }
    },
  };
}

/** A view of `base` with only the named tools. */
function restrict(base: ToolSet, names: readonly string[]): ToolSet {
  const allowed = new Set(names);
  let from: ToolDefinition[] | undefined;
  let defs: ToolDefinition[] = [];
  return {
    get: (name) => (allowed.has(name) ? base.get(name) : undefined),
    definitions() {
      const all = base.definitions();
      if (all !== from) {
        from = all;
        defs = all.filter((d) => allowed.has(d.name));
      }
      return defs;
    },
  };
}

/** What the agent call returns to the parent's model. */
function outcomeOf(name: string, maxTurns: number, result: AgentResult): ToolOutcome {
  switch (result.subtype) {
    case 'success':
      return { content: result.text || `(sub-agent "${name}" ended without a text answer)`, isError: false };
    case 'error_max_turns':
      return { content: `sub-agent "${name}" did not finish within its ${maxTurns} model calls (maxTurns); last text: ${result.text || '(none)'}`, isError: true };
    case 'aborted':
      return { content: `sub-agent "${name}" was aborted`, isError: true };
    case 'error_during_execution':
      return { content: `sub-agent "${name}" failed (${result.error?.code ?? 'ERROR'}): ${result.error?.message ?? 'unknown error'}`, isError: true };
    default: {
      const never: never = result.subtype;
      return { content: `sub-agent "${name}" ended with ${String(never)}`, isError: true };
    }
  }
}

async function runSubagent(
  runLoop: RunLoop,
  parent: LoopConfig,
  sub: SubagentSettings,
  emit: Emit,
  name: string,
  prompt: string,
  toolUseId: string,
  common: HookCommon,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const def = sub.agents[name] as AgentDefinition;
  const agentId = `${name}@${toolUseId}`;
  const ctx = dispatchContext(parent, emit, signal);
  const start = await dispatch(ctx, 'SubagentStart', () => hookInput(common, { agent_id: agentId, agent_type: name, prompt, hook_event_name: 'SubagentStart' as const }));
  if (signal.aborted) return { content: `sub-agent "${name}" was aborted`, isError: true };
  if (start.decision === 'deny') {
    return { content: `sub-agent "${name}" was not started: ${escapeHookText(start.reason ?? `SubagentStart hook "${start.decidedBy?.hookName}" denied it`)}`, isError: true };
  }

  // Its text withheld while a PostToolUse hook (a redactor) reviews this agent call: subagent-gate.ts.
  const gate = new SubagentGate(parent.hooks, AGENT_TOOL, common.session_id);
  const subEmit: Emit = (e) => {
    if (e.type === 'agent.start' || e.type === 'agent.end') return;
    // A deeper sub-agent's events keep their own stamps.
    e.agentId ??= agentId;
    e.parentToolUseId ??= toolUseId;
    const shown = gate.pass(e as HostEvent);
    if (shown) emit(shown);
  };
  const model = def.model ?? parent.model;
  const maxTurns = def.maxTurns ?? parent.maxTurns;
  const canNest = !def.tools || def.tools.includes(AGENT_TOOL);
  const settings: LoopSettings = {
    ...childSettings(parent),
    agentId,
    model,
    systemPrompt: def.systemPrompt,
    tools: def.tools ? restrict(parent.tools, def.tools) : parent.tools,
    maxTurns,
    ...(canNest ? { subagents: { ...sub, depth: sub.depth + 1 } } : {}),
  };
  const parts = { parentToolUseId: toolUseId, turn: parent.turn, prompt, messages: [], pendingContext: [...start.additionalContext], sessionStart: false as const };
  const config = loopConfig(settings, parts, new StateMachine(subEmit), signal);

  subEmit({ type: 'subagent.start', agentType: name, prompt, model: model.id, depth: sub.depth + 1 });
  let result = await runLoop(config, subEmit, signal);
  let outcome = outcomeOf(name, maxTurns, result);
  // maxTurns bounds the task, as it bounds a prompt across Stop blocks: a continuation gets what is left.
  let used = result.turns;
  // SubagentStop may send it back to work, like Stop does for the session's agent.
  for (let blocks = 0; !signal.aborted; ) {
    // last_assistant_message: its own last text (Claude Code's field), whatever `result` says about how it ended.
    const own = { agent_id: agentId, agent_type: name, prompt, hook_event_name: 'SubagentStop' as const, result: outcome.content, stop_hook_active: blocks > 0, last_assistant_message: result.text };
    const stop = await dispatch(ctx, 'SubagentStop', () => hookInput(common, own));
    parent.pendingContext.push(...stop.additionalContext);
    if (stop.decision !== 'block' || result.subtype !== 'success' || signal.aborted) break;
    if (blocks >= parent.stopHookCap) {
      emit({ type: 'error', code: 'STOP_HOOK_CAP', message: `SubagentStop hooks blocked sub-agent "${name}" ${blocks} times; letting it stop (raise stopHookCap to allow more)` });
      break;
    }
    blocks++;
    // Continue the same conversation: the hook's reason, framed and escaped (hook-text.ts), is its next message.
    const next = hookFrames([{ from: stop.decidedBy?.hookName ?? 'a SubagentStop hook', text: stop.reason ?? 'keep going' }], 'SubagentStop');
    result = await runLoop(reconfigured(config, { prompt: next, maxTurns: Math.max(0, maxTurns - used) }), subEmit, signal);
    used += result.turns;
    outcome = outcomeOf(name, maxTurns, result);
  }
  subEmit({ type: 'subagent.end', agentType: name, result, isError: outcome.isError });
  return outcome;
}
