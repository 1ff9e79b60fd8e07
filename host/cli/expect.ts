/**
 * Expectations in a replay file: a line may be a bare hook input (as
 * `run --record` writes it) or `{ "input": …, "expect": … }`, which turns the
 * replay into a regression test for a plugin.
 *
 * @example
 * {"input":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force"},…},"expect":{"decision":"deny","reason":"force"}}
 */
import { z } from 'zod';
import { sameJson } from '../same-json.js';

export const expectationSchema = z
  .object({
    /** The decision (`continue` when the plugin said nothing), or `unbound` when no binding should match. */
    decision: z.enum(['continue', 'allow', 'deny', 'ask', 'stop', 'block', 'unbound']).optional(),
    /** Text the reason must contain. */
    reason: z.string().optional(),
    /** The rewritten input: deep JSON equality, key order aside (host/same-json.ts, the rule the re-check uses). */
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    /** The failure code (TIMEOUT, TRAP, …) when the call should fail. */
    failure: z.string().optional(),
  })
  .strict();

export type Expectation = z.infer<typeof expectationSchema>;

/** What does not hold, as short phrases; empty when the verdict meets the expectation. */
export function unmet(expect: Expectation, v: Verdict): string[] {
  const out: string[] = [];
  const decision = v.kind === 'decided' ? v.decision : v.kind;
  if (expect.failure !== undefined) {
    if (v.kind !== 'failed' || v.code !== expect.failure) out.push(`expected failure ${expect.failure}, got ${v.kind === 'failed' ? v.code : decision}`);
    return out;
  }
  if (v.kind === 'failed') return [`expected ${expect.decision ?? 'a decision'}, got failure ${v.code}: ${v.message}`];
  if (expect.decision !== undefined && expect.decision !== decision) out.push(`expected ${expect.decision}, got ${decision}`);
  if (expect.reason !== undefined) {
    const reason = v.kind === 'decided' ? (v.reason ?? '') : '';
    if (!reason.includes(expect.reason)) out.push(`expected the reason to contain ${JSON.stringify(expect.reason)}, got ${JSON.stringify(reason)}`);
  }
  if (expect.updatedInput !== undefined) {
    const got = v.kind === 'decided' ? v.updatedInput : undefined;
    if (!sameJson(got, expect.updatedInput)) out.push(`expected updatedInput ${JSON.stringify(expect.updatedInput)}, got ${got === undefined ? 'none' : JSON.stringify(got)}`);
  }
  return out;
}

/** What a plugin did with one recorded input (what `plugin test` compares). */
export type Verdict =
  | { kind: 'unbound' }
  | { kind: 'decided'; decision: string; reason?: string; updatedInput?: unknown; updatedOutput?: unknown; durationMs: number; fuelUsed?: number }
  | { kind: 'failed'; code: string; message: string; durationMs: number; fuelUsed?: number };
