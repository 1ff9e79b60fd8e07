// What a hook handler returns: one helper per decision, refined with chained setters.
// Example: `return deny("no deletes outside the workspace").withSystemMessage("blocked rm");`

import { Decision, HookResponse, ToolResponse } from "./gen/hooks";

/** A HookResponse with chainable setters. */
export class Verdict extends HookResponse {
  /** Text added to the model's context for its next turn. */
  withContext(text: string): Verdict {
    this.additionalContext = text;
    return this;
  }

  /** A message shown to the user, not the model. */
  withSystemMessage(text: string): Verdict {
    this.systemMessage = text;
    return this;
  }

  /** PreToolUse: the tool input to use instead (a JSON object). */
  withUpdatedInput(inputJson: string): Verdict {
    this.updatedInputJson = inputJson;
    return this;
  }

  /** PostToolUse: the tool output to use instead (JSON). */
  withUpdatedOutput(outputJson: string): Verdict {
    this.updatedOutputJson = outputJson;
    return this;
  }

  /**
   * PermissionRequest, with `allow()` only: Claude Code's updatedPermissions (a JSON array of
   * PermissionUpdate), e.g. `[{"type":"addRules","rules":[{"toolName":"Write"}],"behavior":"allow","destination":"session"}]`
   * allows Write for the rest of the session.
   */
  withUpdatedPermissions(updatesJson: string): Verdict {
    this.updatedPermissionsJson = updatesJson;
    return this;
  }

  withReason(reason: string): Verdict {
    this.reason = reason;
    return this;
  }
}

function verdict(decision: Decision, reason: string): Verdict {
  const v = new Verdict();
  v.decision = decision;
  v.reason = reason;
  return v;
}

/** No opinion; the next hook runs. */
export function continue_(): Verdict {
  return verdict(Decision.CONTINUE, "");
}

/** Allow the tool call without asking for permission. */
export function allow(reason: string = ""): Verdict {
  return verdict(Decision.ALLOW, reason);
}

/** Refuse the call or the prompt; the reason goes to the model. */
export function deny(reason: string): Verdict {
  return verdict(Decision.DENY, reason);
}

/** Ask the user even if a rule would allow the call. */
export function ask(reason: string = ""): Verdict {
  return verdict(Decision.ASK, reason);
}

/** End the turn. */
export function stop(reason: string = ""): Verdict {
  return verdict(Decision.STOP, reason);
}

/** Stop hooks: do not stop yet; the reason is added to the conversation. */
export function block(reason: string): Verdict {
  return verdict(Decision.BLOCK, reason);
}

/** No opinion on permission, but run the tool with this input (a JSON object) instead. */
export function rewrite(inputJson: string): Verdict {
  return continue_().withUpdatedInput(inputJson);
}

/** No opinion, plus text for the model's next turn. */
export function withContext(text: string): Verdict {
  return continue_().withContext(text);
}

/** No opinion, plus a message for the user. */
export function systemMessage(text: string): Verdict {
  return continue_().withSystemMessage(text);
}

/** A tool's successful result: text (or JSON) for the model. */
export function toolResult(content: string): ToolResponse {
  const r = new ToolResponse();
  r.content = content;
  return r;
}

/** A tool's failure: the message goes to the model as an error result. */
export function toolError(message: string): ToolResponse {
  const r = toolResult(message);
  r.isError = true;
  return r;
}
