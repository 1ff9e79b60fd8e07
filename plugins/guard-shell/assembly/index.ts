// guard-shell: denies destructive shell commands before they run.
// Every rule names itself in the deny reason so the model (and the user) can see why.

import { plugin, deny, allow, ToolUse, HookResponse, FailurePolicy } from "@wasmhooks/sdk-guest";
import { findDestructive } from "./rules";

function checkCommand(call: ToolUse): HookResponse {
  const command = call.input.getString("command");
  const hit = findDestructive(command);
  if (hit !== null) return deny("guard-shell: " + hit.rule + ": " + hit.why + " (command: " + command + ")");
  return allow();
}

plugin("guard-shell", "1.0.0")
  .description("Denies destructive shell commands (rm -rf /, mkfs, dd to a disk, fork bombs, curl | sh, ...)")
  .onPreToolUse("Bash|Shell", checkCommand, FailurePolicy.FAIL_CLOSED);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
