// Routes a decoded request to the author's handlers. Pure (no ABI calls), so
// the exports stay thin and errors come back as data.

import { Decision, HookContext, HookEvent, HookRequest, HookResponse, ToolRequest, ToolResponse, hookEventName } from "./gen/hooks";
import { ToolInvocation, ToolResult, ToolUse } from "./calls";
import { Handler, Plugin } from "./plugin";
import { matcherAccepts } from "./matcher";
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

function toolNameOf(request: HookRequest): string {
  const use = request.toolUse;
  if (request.payloadCase == 12 && use !== null) return use.toolName;
  const result = request.toolResult;
  if (request.payloadCase == 13 && result !== null) return result.toolName;
  return "";
}

function decided(r: HookResponse): bool {
  return r.decision != Decision.UNSPECIFIED && r.decision != Decision.CONTINUE;
}

function joined(a: string, b: string): string {
  if (a.length == 0) return b;
  if (b.length == 0) return a;
  return a + "\n" + b;
}

/** Folds one handler's answer into the plugin's answer so far. */
function merge(acc: HookResponse, r: HookResponse): void {
  if (r.updatedInputJson.length > 0) acc.updatedInputJson = r.updatedInputJson;
  if (r.updatedOutputJson.length > 0) acc.updatedOutputJson = r.updatedOutputJson;
  if (r.reason.length > 0) acc.reason = r.reason;
  acc.additionalContext = joined(acc.additionalContext, r.additionalContext);
  acc.systemMessage = joined(acc.systemMessage, r.systemMessage);
  if (decided(r)) acc.decision = r.decision;
}

/**
 * Runs the handlers bound to the request's event whose matcher accepts the tool,
 * in registration order, until one decides (anything but continue). A rewrite
 * feeds the handlers after it; context and system messages accumulate.
 */
export function dispatchHook(p: Plugin, request: HookRequest): Outcome<HookResponse> {
  const toolName = toolNameOf(request);
  const acc = new HookResponse();
  acc.decision = Decision.CONTINUE;
  for (let i = 0; i < p.handlers.length; i++) {
    const h = p.handlers[i];
    if (h.binding.event != request.event || !matcherAccepts(h.binding.matcher, toolName)) continue;
    const out = runHandler(h, request, acc.updatedInputJson);
    if (out.error.length > 0) return out;
    merge(acc, out.value!);
    if (decided(acc)) break;
  }
  return new Outcome<HookResponse>(acc, "");
}

function runHandler(h: Handler, request: HookRequest, rewrittenInput: string): Outcome<HookResponse> {
  const out = new Outcome<HookResponse>(null, "");
  if (h.handlesToolUse) {
    const use = request.toolUse;
    if (use === null) {
      out.error = "a " + eventLabel(request.event) + " request without a tool_use payload";
      return out;
    }
    const inputJson = rewrittenInput.length > 0 ? rewrittenInput : use.toolInputJson;
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
