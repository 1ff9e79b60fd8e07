// What handlers receive: the decoded request plus the tool input already parsed.

import { HookContext, HookEvent, HookRequest } from "./gen/hooks";
import { JsonValue } from "./json/value";

/** PreToolUse and PermissionRequest: a tool call about to run. */
export class ToolUse {
  constructor(
    public request: HookRequest,
    public toolName: string,
    /** The tool input, parsed; `{}` when the host sent none. */
    public input: JsonValue,
    public inputJson: string,
  ) {}

  get event(): HookEvent { return this.request.event; }
  get context(): HookContext { return contextOf(this.request); }
  /**
   * PreToolUse: true on a re-check, the second round of PreToolUse hooks on a call whose input
   * was rewritten after they judged it (by a later hook or the permission answer). `input` is
   * then the input that will run; the round can only refuse the call. False on a first round.
   */
  get recheck(): bool {
    const use = this.request.toolUse;
    return use !== null && use.recheck;
  }
}

/** PostToolUse and PostToolUseFailure: a tool call that finished. */
export class ToolResult {
  constructor(
    public request: HookRequest,
    public toolName: string,
    public input: JsonValue,
    public inputJson: string,
    /** The tool's output as JSON text (a JSON string for text output). */
    public outputJson: string,
    /** The error message when the call failed; empty otherwise. */
    public error: string,
  ) {}

  get event(): HookEvent { return this.request.event; }
  get context(): HookContext { return contextOf(this.request); }
  get failed(): bool { return this.request.event == HookEvent.POST_TOOL_USE_FAILURE; }
}

/** A call of one of the plugin's own tools (the `tool` export). */
export class ToolInvocation {
  constructor(
    public name: string,
    public input: JsonValue,
    public inputJson: string,
    public context: HookContext,
  ) {}
}

function contextOf(request: HookRequest): HookContext {
  const c = request.context;
  return c !== null ? c : new HookContext();
}
