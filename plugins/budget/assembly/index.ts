// budget: IterationStart stops a prompt that has used up its model calls.
// Only iterations are enforced: protocol v1's HookContext carries the
// iteration number but no token usage (see the README).

import { plugin, config, continue_, stop, HookEvent, HookRequest, HookResponse, FailurePolicy } from "@wasmhooks/sdk-guest";

// Optional, so not requested in describe (a requested key must be granted for
// the plugin to load at all); an operator who sets it grants it explicitly.
const CONFIG_KEY = "max_iterations";
const DEFAULT_MAX: i32 = 20;

/** The configured limit, or -1 with `problem` set when the value is not a positive integer. */
class Limit {
  value: i32 = DEFAULT_MAX;
  problem: string = "";
}

function readLimit(): Limit {
  const limit = new Limit();
  const raw = config(CONFIG_KEY);
  if (raw === null || raw.trim().length == 0) return limit;
  const text = raw.trim();
  let n: i64 = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39 || n > 1_000_000) {
      limit.problem = "config max_iterations is \"" + text + "\"; expected a positive integer up to 1000000";
      return limit;
    }
    n = n * 10 + (c - 0x30);
  }
  if (n < 1 || n > 1_000_000) {
    limit.problem = "config max_iterations is \"" + text + "\"; expected a positive integer up to 1000000";
    return limit;
  }
  limit.value = <i32>n;
  return limit;
}

function checkIteration(request: HookRequest): HookResponse {
  const limit = readLimit();
  // A broken limit stops rather than silently running unbounded.
  if (limit.problem.length > 0) return stop("budget: bad-config: " + limit.problem);
  const ctx = request.context;
  const iteration = ctx !== null ? <i32>ctx.iteration : 0;
  if (iteration > limit.value) {
    return stop(
      "budget: max-iterations: this prompt has used its " + limit.value.toString() +
      " model calls (iteration " + iteration.toString() + "); raise config max_iterations to allow more",
    ).withSystemMessage("budget: stopped after " + limit.value.toString() + " model calls");
  }
  return continue_();
}

plugin("budget", "1.0.0")
  .description("Stops a prompt past max_iterations model calls (default 20)")
  // Fail closed: a budget that cannot be checked ends the run instead of lifting the cap.
  .on(HookEvent.ITERATION_START, checkIteration, "", FailurePolicy.FAIL_CLOSED);

export { describe, hook, tool } from "@wasmhooks/sdk-guest/exports";
