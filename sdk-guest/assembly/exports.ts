// The three functions every wasmhooks plugin exports, in the Extism ABI.
// Re-export them from the plugin's entry file:
//   export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
//
// Plugins are built with `--runtime minimal` (sdk-guest/asconfig.json): no
// collection during a call, so allocation stays cheap, and one full
// collection after every call, when nothing on the stack refers to the heap.
// Collecting only when the heap grew lets the heap double again and again
// (the allocator grows memory before the garbage is swept), so every call it is.

import { HookRequest, ToolRequest } from "./gen/hooks";
import { Reader } from "./proto/wire";
import { currentPlugin } from "./plugin";
import { dispatchHook, dispatchTool } from "./dispatch";
import { failCall, readInput, writeOutput } from "./host";

/** (empty) → PluginInfo */
export function describe(): i32 {
  return collected(describeCall());
}

function describeCall(): i32 {
  const p = currentPlugin();
  if (p.info.name.length == 0) return failCall("the plugin never called plugin(name, version)");
  writeOutput(p.info.encode());
  return 0;
}

/** HookRequest → HookResponse */
export function hook(): i32 {
  return collected(hookCall());
}

function hookCall(): i32 {
  const r = new Reader(readInput());
  const request = HookRequest.decode(r);
  if (r.failed) return failCall("hook: input is not a valid HookRequest: " + r.error);
  const out = dispatchHook(currentPlugin(), request);
  if (out.error.length > 0) return failCall("hook: " + out.error);
  writeOutput(out.value!.encode());
  return 0;
}

/** ToolRequest → ToolResponse */
export function tool(): i32 {
  return collected(toolCall());
}

function toolCall(): i32 {
  const r = new Reader(readInput());
  const request = ToolRequest.decode(r);
  if (r.failed) return failCall("tool: input is not a valid ToolRequest: " + r.error);
  const out = dispatchTool(currentPlugin(), request);
  if (out.error.length > 0) return failCall("tool: " + out.error);
  writeOutput(out.value!.encode());
  return 0;
}

// Runs after the call's output (or error) is in Extism memory.
function collected(code: i32): i32 {
  __collect();
  return code;
}
