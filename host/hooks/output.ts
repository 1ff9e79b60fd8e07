/**
 * What a JS hook returns or a shell hook prints, read in one place: our own
 * fields and the Claude Agent SDK / Claude Code ones, mapped onto the one
 * `HookOutput`. Strict: an unknown key, or a `hookSpecificOutput` written for
 * another event, is BAD_OUTPUT, so the failure policy decides (a guard whose
 * answer we cannot read denies instead of allowing).
 *
 * | accepted | becomes |
 * | --- | --- |
 * | `decision` (ours), `"approve"` | that decision; `approve` is allow |
 * | `decision: "block"` | block on Stop/SubagentStop; on PostToolUse/PostToolUseFailure (the tool ran) its reason goes to the model as context; deny elsewhere |
 * | `hookSpecificOutput.permissionDecision` | allow / deny / ask |
 * | both of the above | the more restrictive (deny/stop/block > ask > allow) |
 * | `continue: false` (+ `stopReason`) | stop; deny where the event cannot stop; on Stop/SubagentStop "let it stop" (continue). Wins over any decision |
 * | `permissionDecisionReason`, `stopReason`, `reason` | `reason` of the decision they go with |
 * | `hookSpecificOutput.updatedInput` / `additionalContext` | `updatedInput` (given once) / `additionalContext` (joined) |
 * | `hookSpecificOutput.decision` (PermissionRequest) | `{ behavior: 'allow', updatedInput?, updatedPermissions? }` allow (+ `updatedPermissions`, permissions/updates.ts), `{ behavior: 'deny', message?, interrupt? }` deny (stop with `interrupt: true`) |
 * | `hookSpecificOutput.updatedToolOutput` / `updatedMCPToolOutput` (PostToolUse; the second on `mcp__` tools only) | `updatedOutput` (as text) |
 * | `suppressOutput`, `continue: true` | accepted, no effect |
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { outcomeOf } from '../mcp/content-text.js';
import { permissionUpdatesSchema } from '../permissions/updates.js';
import { DECISION_RANK, HOOK_EVENT_RULES } from './decisions.js';
import { HOOK_EVENT_NAMES, type HookCallbackOutput, type HookDecision, type HookEventName, type HookOutput } from './types.js';

// Built at the first hook answer read, not at import: a program that only runs WASM guards never reads one.
const hookOutputSchema = lazy(() => {
  const record = z.record(z.string(), z.unknown());
  const block = z.looseObject({ type: z.string() });
  const hookSpecificOutputSchema = z.strictObject({
    hookEventName: z.enum(HOOK_EVENT_NAMES),
    permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
    permissionDecisionReason: z.string().optional(),
    updatedInput: record.optional(),
    additionalContext: z.string().optional(),
    /** PermissionRequest only (the Claude Agent SDK's answer to the permission question). */
    decision: z
      .discriminatedUnion('behavior', [
        z.strictObject({ behavior: z.literal('allow'), updatedInput: record.optional(), updatedPermissions: permissionUpdatesSchema().optional() }),
        z.strictObject({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
      ])
      .optional(),
    /** PostToolUse on an MCP tool: text, MCP content blocks, or a CallToolResult (its text is what the model gets). */
    updatedMCPToolOutput: z.union([z.string(), z.array(block), z.looseObject({ content: z.array(block) })]).optional(),
    /** PostToolUse: text, or JSON (an object or array) the model gets written as text. */
    updatedToolOutput: z.union([z.string(), record, z.array(z.unknown())]).optional(),
  });

  // A hook's answer in either spelling; unknown keys are refused.
  return z.strictObject({
    decision: z.enum(['continue', 'allow', 'deny', 'ask', 'stop', 'block', 'approve']).optional(),
    reason: z.string().optional(),
    updatedInput: record.optional(),
    updatedOutput: z.string().optional(),
    additionalContext: z.string().optional(),
    systemMessage: z.string().optional(),
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    hookSpecificOutput: hookSpecificOutputSchema.optional(),
  }) satisfies z.ZodType<HookCallbackOutput>;
});

type Parsed = z.output<ReturnType<typeof hookOutputSchema>>;

export type OutputRead = { ok: true; output: HookOutput } | { ok: false; message: string };

/** Stop and SubagentStop: where `block` means "keep working" rather than deny. */
const isStopEvent = (event: HookEventName): boolean => event === 'Stop' || event === 'SubagentStop';

/** Where Claude Code's `block` (a `"decision": "block"`, a shell hook's exit 2) tells the model why: the tool already ran. */
const FEEDBACK_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>(['PostToolUse', 'PostToolUseFailure']);

/**
 * What Claude Code's `block` means on `event`, in one place for JS and shell hooks: keep working on
 * Stop/SubagentStop; on PostToolUse/PostToolUseFailure the reason reaches the model (as
 * `additionalContext`, in the next call's `<hook-context>`; the call's output stands); shown to the user
 * (`systemMessage`) on an observe-only event; deny elsewhere.
 */
export function blockOutput(event: HookEventName, reason: string | undefined): HookOutput {
  if (FEEDBACK_EVENTS.has(event)) return reason === undefined ? {} : { reason, additionalContext: reason };
  const decision: HookDecision = isStopEvent(event) ? 'block' : 'deny';
  // On an observe-only event (SessionStart, SessionEnd, Notification, …) Claude Code shows it to the user only.
  if (HOOK_EVENT_RULES[event].decisions.every((d) => d === 'continue')) return reason === undefined ? {} : { systemMessage: reason };
  return reason === undefined ? { decision } : { decision, reason };
}

/** Where Claude Code adds a command hook's plain (non-JSON) stdout to the model's context: elsewhere it only logs it. */
const PLAIN_CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set<HookEventName>(['UserPromptSubmit', 'SessionStart']);

/**
 * What a command hook's plain text on stdout (exit 0, not a JSON answer) means on `event`, as in Claude
 * Code: context for the model on UserPromptSubmit and SessionStart (the date, the branch, a rule to
 * repeat), nothing elsewhere (a log line is no opinion; it never allows or denies anything).
 */
export function plainOutput(event: HookEventName, text: string): HookOutput {
  return PLAIN_CONTEXT_EVENTS.has(event) ? { additionalContext: text } : {};
}

/** `continue: false`: stop where legal, else deny where legal; on Stop it lets the agent stop. */
function haltDecision(event: HookEventName): HookDecision {
  if (isStopEvent(event)) return 'continue';
  const legal = HOOK_EVENT_RULES[event].decisions;
  // On an observe-only event neither is legal; `stop` is then reported as a violation.
  return legal.includes('stop') || !legal.includes('deny') ? 'stop' : 'deny';
}

function spelled(decision: NonNullable<Parsed['decision']>, event: HookEventName): HookDecision {
  if (decision === 'approve') return 'allow';
  // Kept as block where it is feedback (readHookOutput turns it into context), so it ranks as Claude's answer.
  if (decision === 'block' && !isStopEvent(event) && !FEEDBACK_EVENTS.has(event)) return 'deny';
  return decision;
}

/** The decision and its reason, from whichever field said the most restrictive thing. */
function decide(p: Parsed, event: HookEventName): { decision?: HookDecision; reason?: string } {
  const specific = p.hookSpecificOutput;
  if (p.continue === false) return { decision: haltDecision(event), reason: p.stopReason ?? p.reason ?? specific?.permissionDecisionReason };
  const ours = p.decision !== undefined ? { decision: spelled(p.decision, event), reason: p.reason ?? specific?.permissionDecisionReason } : undefined;
  const answer = specific?.decision;
  const claude = specific?.permissionDecision !== undefined
    ? { decision: specific.permissionDecision, reason: specific.permissionDecisionReason ?? p.reason }
    : answer !== undefined
      ? answer.behavior === 'deny'
        ? { decision: answer.interrupt === true ? 'stop' as const : 'deny' as const, reason: answer.message ?? p.reason }
        : { decision: answer.behavior, reason: p.reason }
      : undefined;
  if (ours && claude) return DECISION_RANK[claude.decision] > DECISION_RANK[ours.decision] ? claude : ours;
  return ours ?? claude ?? { reason: p.reason ?? specific?.permissionDecisionReason };
}

/** Claude Code's output rewrites (`updatedToolOutput`, `updatedMCPToolOutput`) as the text the model gets, or why they cannot be used. */
function rewrittenOutput(specific: Parsed['hookSpecificOutput'], toolName: string | undefined): { text?: string } | string {
  if (specific === undefined) return {};
  const { updatedToolOutput: any, updatedMCPToolOutput: mcp } = specific;
  if (any !== undefined && mcp !== undefined) return 'give one of hookSpecificOutput.updatedToolOutput and updatedMCPToolOutput';
  if (mcp !== undefined) {
    if (toolName === undefined || !toolName.startsWith('mcp__')) return `hookSpecificOutput.updatedMCPToolOutput rewrites an MCP tool's output (mcp__…), not ${toolName ?? 'this event'}'s; use updatedToolOutput`;
    if (typeof mcp === 'string') return { text: mcp };
    // The MCP client's reading (text parts joined, other parts named), uncut: the hook text caps bound it.
    return { text: outcomeOf(Array.isArray(mcp) ? { content: mcp } : mcp, Number.POSITIVE_INFINITY).content };
  }
  if (any === undefined) return {};
  return { text: typeof any === 'string' ? any : JSON.stringify(any) };
}

const joined = (a: string | undefined, b: string | undefined) => (a !== undefined && b !== undefined ? `${a}\n${b}` : (a ?? b));

/**
 * Reads what a hook of `event` answered. Never throws. `toolName`: the call's tool on a tool event
 * (an `updatedMCPToolOutput` is legal on an MCP tool only).
 *
 * @example
 * readHookOutput('PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } })
 * // → { ok: true, output: { decision: 'deny' } }
 */
export function readHookOutput(event: HookEventName, raw: unknown, toolName?: string): OutputRead {
  const parsed = hookOutputSchema().safeParse(raw);
  if (!parsed.success) return { ok: false, message: z.prettifyError(parsed.error) };
  const p = parsed.data;
  const specific = p.hookSpecificOutput;
  if (specific && specific.hookEventName !== event) {
    return { ok: false, message: `hookSpecificOutput.hookEventName is "${specific.hookEventName}", but this hook runs on ${event}` };
  }
  if (specific?.decision !== undefined && (event !== 'PermissionRequest' || specific.permissionDecision !== undefined)) {
    return { ok: false, message: 'hookSpecificOutput.decision answers a PermissionRequest only, and not together with permissionDecision' };
  }
  const answered = specific?.decision?.behavior === 'allow' ? specific.decision.updatedInput : undefined;
  if ([p.updatedInput, specific?.updatedInput, answered].filter((u) => u !== undefined).length > 1) {
    return { ok: false, message: 'updatedInput is given twice (at the top level and in hookSpecificOutput); give it once' };
  }
  const rewritten = rewrittenOutput(specific, toolName);
  if (typeof rewritten === 'string') return { ok: false, message: rewritten };
  if (rewritten.text !== undefined && p.updatedOutput !== undefined) {
    return { ok: false, message: 'the output is rewritten twice (updatedOutput and hookSpecificOutput.updatedToolOutput/updatedMCPToolOutput); give it once' };
  }
  const { decision, reason } = decide(p, event);
  // A block where the tool already ran is feedback, not a decision: its reason goes to the model.
  const feedback = decision === 'block' && FEEDBACK_EVENTS.has(event) ? blockOutput(event, reason).additionalContext : undefined;
  const output: HookOutput = {};
  if (decision !== undefined && decision !== 'continue' && !(decision === 'block' && FEEDBACK_EVENTS.has(event))) output.decision = decision;
  if (reason !== undefined) output.reason = reason;
  const updatedInput = p.updatedInput ?? specific?.updatedInput ?? answered;
  if (updatedInput !== undefined) output.updatedInput = updatedInput;
  const updatedOutput = p.updatedOutput ?? rewritten.text;
  if (updatedOutput !== undefined) output.updatedOutput = updatedOutput;
  const permissions = specific?.decision?.behavior === 'allow' ? specific.decision.updatedPermissions : undefined;
  // Only an allow applies them: a `continue: false` beside them stops instead.
  if (permissions !== undefined && decision === 'allow') output.updatedPermissions = permissions;
  const context = joined(feedback, joined(p.additionalContext, specific?.additionalContext));
  if (context !== undefined) output.additionalContext = context;
  if (p.systemMessage !== undefined) output.systemMessage = p.systemMessage;
  return { ok: true, output };
}
