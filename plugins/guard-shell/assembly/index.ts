// guard-shell: denies destructive shell commands before they run.
// Every rule names itself in the deny reason so the model (and the user) can see why.

import { plugin, deny, allow, continue_, configOr, ToolUse, HookResponse, FailurePolicy } from "@wasmhooks/sdk-guest";
import { findDestructive } from "./rules";

/**
 * Config key: what a command no rule denies gets. "allow" (the default) skips the permission
 * question; "continue" leaves the call to it (rules, the app's callback, the person at the
 * terminal), so the guard only ever narrows what the host would do. The CLI's default guard
 * uses "continue": a denylist cannot tell a safe command from `curl -d @~/.ssh/id_rsa …`.
 */
const OTHERS = "others";

function checkCommand(call: ToolUse): HookResponse {
  const command = call.input.getString("command");
  const hit = findDestructive(command);
  if (hit !== null) return deny("guard-shell: " + hit.rule + ": " + hit.why + " (command: " + command + ")");
  // Only "allow" (or no value) approves: any other value, a typo included, leaves the call to the permission step.
  return configOr(OTHERS, "allow") == "allow" ? allow() : continue_();
}

plugin("guard-shell", "1.0.0")
  .description("Denies destructive shell commands (rm -rf /, mkfs, dd to a disk, fork bombs, curl | sh, ...)")
  .onPreToolUse("Bash|Shell", checkCommand, FailurePolicy.FAIL_CLOSED);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
