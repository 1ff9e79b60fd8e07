// calc: a WASM tool the model can call to evaluate arithmetic exactly as
// written, instead of doing it in its head.

import { plugin, toolResult, toolError, progress, ToolInvocation, ToolResponse } from "@wasmhooks/sdk-guest";
import { evaluate, formatNumber } from "./parser";

const MAX_LENGTH = 10_000;

const SCHEMA =
  '{"type":"object","properties":{"expression":{"type":"string","description":"Arithmetic with + - * / % ^, parentheses, unary minus and decimals, e.g. (2 + 3) * -4.5 ^ 2"}},"required":["expression"],"additionalProperties":false}';

function calc(call: ToolInvocation): ToolResponse {
  const expression = call.input.getString("expression");
  if (expression.length > MAX_LENGTH) return toolError("calc: the expression is longer than " + MAX_LENGTH.toString() + " characters");
  const result = evaluate(expression);
  progress('{"stage":"evaluated","tokens":' + result.tokens.toString() + "}");
  if (result.error.length > 0) return toolError("calc: " + result.error + " in: " + expression);
  return toolResult(formatNumber(result.value));
}

plugin("calc", "1.0.0")
  .description("A calculator tool: evaluates arithmetic expressions safely")
  .tool("calc", "Evaluates an arithmetic expression (+ - * / % ^, parentheses, unary minus, decimals) and returns the number.", SCHEMA, calc);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
