// The plugin an author declares: name, version, hook handlers, tools, grants.
// Handlers must be top-level functions or arrow functions that capture nothing
// (AssemblyScript has no closures); they receive everything through their argument.

import {
  FailurePolicy, Grants, HookBinding, HookEvent, HookRequest, HookResponse,
  PluginInfo, ToolResponse, ToolSpec,
} from "./gen/hooks";
import { ToolInvocation, ToolResult, ToolUse } from "./calls";

/** The protocol major this SDK speaks. */
export const PROTOCOL_VERSION: u32 = 1;

export type ToolUseHandler = (call: ToolUse) => HookResponse;
export type ToolResultHandler = (result: ToolResult) => HookResponse;
export type RequestHandler = (request: HookRequest) => HookResponse;
export type ToolHandler = (call: ToolInvocation) => ToolResponse;

const HANDLES_TOOL_USE: u8 = 1;
const HANDLES_TOOL_RESULT: u8 = 2;
const HANDLES_REQUEST: u8 = 3;

/** One registered hook handler; exactly one of the handler fields is set, named by `kind`. */
export class Handler {
  kind: u8 = 0;
  onToolUse: ToolUseHandler | null = null;
  onToolResult: ToolResultHandler | null = null;
  onRequest: RequestHandler | null = null;
  constructor(public binding: HookBinding) {}

  get handlesToolUse(): bool { return this.kind == HANDLES_TOOL_USE; }
  get handlesToolResult(): bool { return this.kind == HANDLES_TOOL_RESULT; }
}

export class RegisteredTool {
  constructor(public spec: ToolSpec, public run: ToolHandler) {}
}

/**
 * A plugin under construction. Get it with `plugin(name, version)` and chain registrations.
 * Example:
 * ```ts
 * plugin("guard-shell", "1.0.0").onPreToolUse("Bash", checkCommand);
 * ```
 */
export class Plugin {
  info: PluginInfo = new PluginInfo();
  handlers: Handler[] = [];
  tools: RegisteredTool[] = [];

  constructor() {
    this.info.protocolVersion = PROTOCOL_VERSION;
  }

  /** A one-line description shown by hosts. */
  description(text: string): Plugin {
    this.info.description = text;
    return this;
  }

  /**
   * PreToolUse for tools whose name matches `matcher`, applied by the host: "" or "*" match every
   * tool, anything else is a regular expression over the whole name ("Bash", "Write|Edit",
   * "mcp__.*"); see docs/hooks.md. Each binding's handler runs at most once per call.
   */
  onPreToolUse(matcher: string, handler: ToolUseHandler, policy: FailurePolicy = FailurePolicy.UNSPECIFIED): Plugin {
    return this.toolUse(HookEvent.PRE_TOOL_USE, matcher, handler, policy);
  }

  /** PermissionRequest: the call fell through to a permission question; allow or deny answers it. */
  onPermissionRequest(matcher: string, handler: ToolUseHandler, policy: FailurePolicy = FailurePolicy.UNSPECIFIED): Plugin {
    return this.toolUse(HookEvent.PERMISSION_REQUEST, matcher, handler, policy);
  }

  /** PostToolUse: a call succeeded. */
  onPostToolUse(matcher: string, handler: ToolResultHandler, policy: FailurePolicy = FailurePolicy.UNSPECIFIED): Plugin {
    return this.toolResult(HookEvent.POST_TOOL_USE, matcher, handler, policy);
  }

  /** PostToolUseFailure: a call failed. */
  onPostToolUseFailure(matcher: string, handler: ToolResultHandler, policy: FailurePolicy = FailurePolicy.UNSPECIFIED): Plugin {
    return this.toolResult(HookEvent.POST_TOOL_USE_FAILURE, matcher, handler, policy);
  }

  /** Any event, with the raw request. Example: `.on(HookEvent.STOP, keepGoing)`. */
  on(event: HookEvent, handler: RequestHandler, matcher: string = "", policy: FailurePolicy = FailurePolicy.UNSPECIFIED): Plugin {
    const h = this.bind(event, matcher, policy);
    h.kind = HANDLES_REQUEST;
    h.onRequest = handler;
    return this;
  }

  /** A tool the model can call; `inputSchemaJson` is a JSON Schema document for its input. */
  tool(name: string, description: string, inputSchemaJson: string, handler: ToolHandler): Plugin {
    const spec = new ToolSpec();
    spec.name = name;
    spec.description = description;
    spec.inputSchemaJson = inputSchemaJson;
    this.info.tools.push(spec);
    this.tools.push(new RegisteredTool(spec, handler));
    return this;
  }

  /** Asks the host for network access to `host` (granted only if the operator agrees). */
  requestNetworkHost(host: string): Plugin {
    this.grants().networkHosts.push(host);
    return this;
  }

  requestFilePath(path: string): Plugin {
    this.grants().filePaths.push(path);
    return this;
  }

  requestConfigKey(key: string): Plugin {
    this.grants().configKeys.push(key);
    return this;
  }

  private grants(): Grants {
    let g = this.info.grants;
    if (g === null) {
      g = new Grants();
      this.info.grants = g;
    }
    return g;
  }

  private toolUse(event: HookEvent, matcher: string, handler: ToolUseHandler, policy: FailurePolicy): Plugin {
    const h = this.bind(event, matcher, policy);
    h.kind = HANDLES_TOOL_USE;
    h.onToolUse = handler;
    return this;
  }

  private toolResult(event: HookEvent, matcher: string, handler: ToolResultHandler, policy: FailurePolicy): Plugin {
    const h = this.bind(event, matcher, policy);
    h.kind = HANDLES_TOOL_RESULT;
    h.onToolResult = handler;
    return this;
  }

  private bind(event: HookEvent, matcher: string, policy: FailurePolicy): Handler {
    const b = new HookBinding();
    b.event = event;
    b.matcher = matcher;
    b.failurePolicy = policy;
    this.info.hooks.push(b);
    const h = new Handler(b);
    this.handlers.push(h);
    return h;
  }
}

const current = new Plugin();

/** Declares the plugin; call once at the top level of the entry file. */
export function plugin(name: string, version: string): Plugin {
  current.info.name = name;
  current.info.version = version;
  return current;
}

/** The declared plugin, for the exported ABI functions. */
export function currentPlugin(): Plugin {
  return current;
}
