// @wasmhooks/sdk-guest: write wasmhooks plugins in AssemblyScript.
// See sdk-guest/README.md for a complete guard in a dozen lines.

export { plugin, Plugin, PROTOCOL_VERSION } from "./plugin";
export { ToolUseHandler, ToolResultHandler, RequestHandler, ToolHandler } from "./plugin";
export { ToolUse, ToolResult, ToolInvocation } from "./calls";
export {
  Verdict, allow, deny, ask, stop, block, continue_, rewrite, withContext, systemMessage,
  toolResult, toolError,
} from "./decisions";
export { progress, log } from "./host";
export { config, configOr } from "./config";
export { JsonValue, JsonKind } from "./json/value";
export { parseJson, JsonParseResult } from "./json/parse";
export { JsonWriter, jsonString } from "./json/writer";
export { TextEdit, spliceText } from "./text";
export * from "./gen/hooks";
export { Reader, Writer } from "./proto/wire";
export { wasmhooksAbort } from "./abort";
