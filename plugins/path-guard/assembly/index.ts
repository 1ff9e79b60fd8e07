// path-guard: file tools may only touch paths inside the configured workspace.
// Every deny reason reads "path-guard: <rule>: <why>" so the model can correct itself.

import { plugin, continue_, deny, ToolUse, HookResponse, FailurePolicy, JsonValue } from "@wasmhooks/sdk-guest";
import { globBase, hasDotDot, isWithin, normalize } from "./paths";
import { CONFIG_KEY, readWorkspace, Workspace } from "./workspace";

/** The tools this guard watches; documented in the README. */
const FILE_TOOLS = "Read|Write|Edit|MultiEdit|NotebookEdit|NotebookRead|Glob|Grep|LS";
const PATH_FIELDS: string[] = ["file_path", "path", "notebook_path"];

function refuse(rule: string, why: string): HookResponse {
  return deny("path-guard: " + rule + ": " + why);
}

/** Null when `raw` (as the model wrote it) is inside the workspace; else the deny. */
function checkPath(field: string, raw: string, cwd: string, ws: Workspace): HookResponse | null {
  if (raw.includes("\0")) return refuse("nul-byte", field + " contains a NUL byte");
  if (raw.startsWith("~")) {
    return refuse("home-tilde", field + " \"" + raw + "\" starts with ~, which file tools do not expand; use an absolute path inside the workspace");
  }
  if (!raw.startsWith("/") && !cwd.startsWith("/")) {
    return refuse("no-cwd", field + " \"" + raw + "\" is relative and the session has no absolute cwd to resolve it against");
  }
  const abs = normalize(cwd, raw);
  for (let i = 0; i < ws.roots.length; i++) if (isWithin(ws.roots[i], abs)) return null;
  const rule = hasDotDot(raw) ? "dotdot-escape" : "outside-workspace";
  return refuse(rule, field + " \"" + raw + "\" resolves to " + abs + ", outside the workspace (" + ws.roots.join(", ") + ")");
}

function checkCall(call: ToolUse): HookResponse {
  const ws = readWorkspace();
  if (ws.problem.length > 0) return refuse("no-workspace", ws.problem);
  const cwd = call.context.cwd;
  let seen = 0;
  for (let i = 0; i < PATH_FIELDS.length; i++) {
    const field = PATH_FIELDS[i];
    const v: JsonValue | null = call.input.get(field);
    if (v === null || v.isNull) continue;
    if (!v.isString) return refuse("bad-input", field + " is not a string");
    if (v.stringValue.length == 0) continue;
    seen++;
    const hit = checkPath(field, v.stringValue, cwd, ws);
    if (hit !== null) return hit;
  }
  // Glob patterns carry paths too: `../../etc/*` or `/etc/**` escape on their own.
  const pattern = call.input.getString("pattern");
  if (call.toolName == "Glob" && pattern.length > 0) {
    if (hasDotDot(pattern)) return refuse("dotdot-escape", "glob pattern \"" + pattern + "\" has a .. segment");
    if (pattern.startsWith("/") || pattern.startsWith("~")) {
      const hit = checkPath("pattern", globBase(pattern), cwd, ws);
      if (hit !== null) return hit;
    }
  }
  // A call without a path acts on the cwd (Glob, Grep, LS default to it).
  if (seen == 0) {
    if (!cwd.startsWith("/")) return refuse("no-cwd", call.toolName + " has no path and the session has no absolute cwd");
    const hit = checkPath("cwd", cwd, cwd, ws);
    if (hit !== null) return hit;
  }
  return continue_();
}

plugin("path-guard", "1.0.0")
  .description("Confines file tools (" + FILE_TOOLS + ") to the workspace paths in config key \"workspace\"")
  .onPreToolUse(FILE_TOOLS, checkCall, FailurePolicy.FAIL_CLOSED)
  .requestConfigKey(CONFIG_KEY);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
