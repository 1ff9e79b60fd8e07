// secret-redactor: rewrites tool output so API keys, tokens and private keys
// never reach the model (or the transcript it writes).

import { plugin, continue_, systemMessage, parseJson, jsonString, ToolResult, HookResponse, FailurePolicy } from "@wasmhooks/sdk-guest";
import { Redacted, redactJson, redactText } from "./redact";

/** The rewritten output JSON, or "" when nothing was redacted. */
function rewrite(outputJson: string, found: Redacted): string {
  // Text output arrives as one JSON string, which redactJson redacts like any string value.
  const parsed = parseJson(outputJson);
  if (!parsed.ok) {
    const text = redactText(outputJson, found);
    return found.kinds.length > 0 ? jsonString(text) : "";
  }
  redactJson(parsed.value, found);
  // Serialised only when something changed: for 1 MB of output that is 2 MB not allocated.
  return found.kinds.length > 0 ? parsed.value.toJson() : "";
}

function redactOutput(result: ToolResult): HookResponse {
  if (result.outputJson.length == 0) return continue_();
  const found = new Redacted();
  const rewritten = rewrite(result.outputJson, found);
  if (found.kinds.length == 0) return continue_();
  return systemMessage("secret-redactor: redacted " + found.kinds.length.toString() + " secret(s) from " + result.toolName + " output: " + found.kinds.join(", "))
    .withUpdatedOutput(rewritten);
}

plugin("secret-redactor", "1.0.0")
  .description("Replaces API keys, tokens and private keys in tool output with [REDACTED:<kind>]")
  // Fail closed: if redaction breaks, the output is withheld and the turn stops (PostToolUse's closed decision).
  .onPostToolUse("", redactOutput, FailurePolicy.FAIL_CLOSED)
  // A failed call's text is output too (Bash's stdout before a non-zero exit, an MCP isError result): the model
  // gets it, so it is redacted the same way; failing closed withholds it.
  .onPostToolUseFailure("", redactOutput, FailurePolicy.FAIL_CLOSED);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
