// Routes a decoded request to the author's handlers. Pure (no ABI calls), so
// the exports stay thin and errors come back as data.

import { Decision, HookContext, HookEvent, HookRequest, HookResponse, ToolRequest, ToolResponse, hookEventName } from "./gen/hooks";
import { ToolInvocation, ToolResult, ToolUse } from "./calls";
import { Handler, Plugin } from "./plugin";
import { parseJson } from "./json/parse";
import { JsonValue } from "./json/value";

/** A response, or the reason there is none (sent back as an Extism error). */
export class Outcome<T> {
  constructor(public value: T | null, public error: string) {}
}

function parseInput(json: string, what: string, into: Outcome<JsonValue>): void {
  if (json.length == 0) {
    into.value = JsonValue.emptyObject();
    return;
  }
  const parsed = parseJson(json);
  if (parsed.ok) into.value = parsed.value;
  else into.error = what + " is not valid JSON: " + parsed.error;
}

/**
 * Runs the one handler of the binding the host matched: `binding_index` is an
 * index into `describe`'s bindings, which are the handlers in registration
 * order. The host has already applied the matcher and runs the chain (order,
 * rewrites, the first deny or stop ending it), so the guest neither matches
 * nor chains: each handler runs once per call, with its own answer.
 */
export function dispatchHook(p: Plugin, request: HookRequest): Outcome<HookResponse> {
  const index = request.bindingIndex;
  if (index >= <u32>p.handlers.length) {
    return new Outcome<HookResponse>(null, "binding_index " + index.toString() + " is out of range: plugin " + p.info.name +
      " has " + p.handlers.length.toString() + " bindings");
  }
  const h = p.handlers[<i32>index];
  if (h.binding.event != request.event) {
    return new Outcome<HookResponse>(null, "binding_index " + index.toString() + " is a " + eventLabel(h.binding.event) +
      " binding, but the request is " + eventLabel(request.event));
  }
  const out = runHandler(h, request);
  const response = out.value;
  if (response !== null && response.decision == Decision.UNSPECIFIED) response.decision = Decision.CONTINUE;
  return out;
}

function runHandler(h: Handler, request: HookRequest): Outcome<HookResponse> {
  const out = new Outcome<HookResponse>(null, "");
  if (h.handlesToolUse) {
    const use = request.toolUse;
    if (use === null) {
      out.error = "a " + eventLabel(request.event) + " request without a tool_use payload";
      return out;
    }
    const inputJson = use.toolInputJson;
    const input = new Outcome<JsonValue>(null, "");
    parseInput(inputJson, "tool_input_json", input);
    if (input.error.length > 0) return new Outcome<HookResponse>(null, input.error);
    out.value = h.onToolUse!(new ToolUse(request, use.toolName, input.value!, inputJson));
  } else if (h.handlesToolResult) {
    const res = request.toolResult;
    if (res === null) {
      out.error = "a " + eventLabel(request.event) + " request without a tool_result payload";
      return out;
    }
    const input = new Outcome<JsonValue>(null, "");
    parseInput(res.toolInputJson, "tool_input_json", input);
    if (input.error.length > 0) return new Outcome<HookResponse>(null, input.error);
    out.value = h.onToolResult!(new ToolResult(request, res.toolName, input.value!, res.toolInputJson, res.toolOutputJson, res.error));
  } else {
    out.value = h.onRequest!(request);
  }
  return out;
}

/** Runs the plugin's tool named in the request. */
export function dispatchTool(p: Plugin, request: ToolRequest): Outcome<ToolResponse> {
  for (let i = 0; i < p.tools.length; i++) {
    const t = p.tools[i];
    if (t.spec.name != request.name) continue;
    const input = new Outcome<JsonValue>(null, "");
    parseInput(request.inputJson, "input_json of tool " + request.name, input);
    if (input.error.length > 0) return new Outcome<ToolResponse>(null, input.error);
    const ctx = request.context;
    const call = new ToolInvocation(request.name, input.value!, request.inputJson, ctx !== null ? ctx : new HookContext());
    return new Outcome<ToolResponse>(t.run(call), "");
  }
  return new Outcome<ToolResponse>(null, "plugin " + p.info.name + " has no tool named \"" + request.name + "\"");
}

function eventLabel(event: HookEvent): string {
  const name = hookEventName(event);
  return name.length > 0 ? name : "HookEvent " + (<i32>event).toString();
}
