// require-verification: a stop-handler that blocks the agent from finishing
// until a test command has run in the session.
//
// v1's Stop payload has only the last assistant message and stop_hook_active,
// not the transcript, so the plugin watches the shell tools itself
// (PostToolUse on Bash|Shell) and remembers, per session, that tests ran.

import {
  plugin, configOr, continue_, block, HookEvent, HookRequest, HookResponse, ToolResult, FailurePolicy,
} from "@wasmhooks/sdk-guest";
import { DEFAULT_PATTERN, matchedPhrase } from "./patterns";

// Optional, so not requested in describe (a requested key must be granted for
// the plugin to load at all); an operator who sets it grants it explicitly.
const CONFIG_KEY = "test_pattern";
/** Sessions remembered at most; past this the oldest is forgotten (it would be asked again). */
const MAX_SESSIONS = 1000;

// Plugin state lives in the wasm instance: globals persist across calls of one
// instance. The host rebuilds an instance after a trap or timeout, which
// forgets it; the next Stop then blocks once more (the safe side).
const verified = new Map<string, string>();
const order: string[] = [];

function testPattern(): string {
  return configOr(CONFIG_KEY, DEFAULT_PATTERN);
}

function sessionOf(request: HookRequest): string {
  const ctx = request.context;
  return ctx !== null ? ctx.sessionId : "";
}

function remember(session: string, phrase: string): void {
  if (!verified.has(session)) {
    order.push(session);
    if (order.length > MAX_SESSIONS) verified.delete(order.shift());
  }
  verified.set(session, phrase);
}

function watchShell(result: ToolResult): HookResponse {
  const phrase = matchedPhrase(result.input.getString("command"), testPattern());
  if (phrase.length > 0) remember(sessionOf(result.request), phrase);
  return continue_();
}

function checkStop(request: HookRequest): HookResponse {
  const s = request.stop;
  // Already blocked once in this prompt: let it stop rather than loop.
  if (s !== null && s.stopHookActive) return continue_();
  if (verified.has(sessionOf(request))) return continue_();
  return block(
    "require-verification: no-test-run: run the tests before finishing (no shell command matching the test pattern has run in this session; it looks for: " +
    testPattern().replaceAll("|", ", ") + ")",
  );
}

function forget(request: HookRequest): HookResponse {
  const session = sessionOf(request);
  if (verified.has(session)) {
    verified.delete(session);
    const at = order.indexOf(session);
    if (at >= 0) order.splice(at, 1);
  }
  return continue_();
}

plugin("require-verification", "1.0.0")
  .description("Blocks the stop until a test command (config test_pattern) has run in the session")
  .onPostToolUse("Bash|Shell", watchShell, FailurePolicy.FAIL_OPEN)
  .on(HookEvent.STOP, checkStop)
  .on(HookEvent.SESSION_END, forget);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
