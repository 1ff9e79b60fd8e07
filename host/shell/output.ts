/**
 * Turns how a shell hook's process ended into a `HookResult`, following the
 * convention users bring from other agent SDKs:
 *
 * | process | result |
 * | --- | --- |
 * | exit 0, empty stdout | continue |
 * | exit 0, JSON object on stdout | that output (`{"decision":"allow"}`, `{"updatedInput":{…}}`, …) |
 * | exit 0, anything else on stdout | BAD_OUTPUT failure |
 * | exit 2 | deny (block for Stop/SubagentStop), reason = stderr |
 * | exit 49 | stop (halt the turn), reason = stderr |
 * | other exit code, signal | TRAP failure |
 * | cannot start | LOAD_FAILED failure |
 * | deadline passed | TIMEOUT failure (the process group is killed) |
 *
 * A failure is never a decision by itself: the failure policy decides.
 */
import { z } from 'zod';
import type { HookDecision, HookEventName, HookOutput, HookResult } from '../hooks/types.js';
import { hookOutputSchema } from '../hooks/js.js';
import type { ShellOutcome } from './run.js';
import { parseJson } from '../json.js';

export const EXIT_DENY = 2;
export const EXIT_STOP = 49;

// `approve` is Claude Code's older spelling of allow.
const decisionSchema = z.enum(['continue', 'allow', 'deny', 'ask', 'stop', 'block', 'approve']);

/**
 * What a hook may print. Our own fields, plus the Claude Code ones that map
 * onto them (`continue: false`, `stopReason`, `hookSpecificOutput`), so
 * existing scripts work unchanged. Unknown keys are ignored.
 */
const stdoutSchema = hookOutputSchema.extend({
  decision: decisionSchema.optional(),
  hookSpecificOutput: z
    .object({
      permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

type Printed = z.infer<typeof stdoutSchema>;

const blocksStop = (event: HookEventName) => event === 'Stop' || event === 'SubagentStop';

/** Claude Code scripts say `block` for a PreToolUse deny and `approve` for allow. */
function normalise(decision: Printed['decision'], event: HookEventName): HookDecision | undefined {
  if (decision === 'approve') return 'allow';
  if (decision === 'block' && !blocksStop(event)) return 'deny';
  return decision;
}

function toOutput(p: Printed, event: HookEventName): HookOutput {
  const specific = p.hookSpecificOutput ?? {};
  const out: HookOutput = {};
  const decision = p.continue === false ? 'stop' : (normalise(p.decision, event) ?? specific.permissionDecision);
  const reason = p.continue === false ? (p.stopReason ?? p.reason) : (p.reason ?? specific.permissionDecisionReason);
  const updatedInput = p.updatedInput ?? specific.updatedInput;
  const additionalContext = p.additionalContext ?? specific.additionalContext;
  if (decision && decision !== 'continue') out.decision = decision;
  if (reason) out.reason = reason;
  if (updatedInput) out.updatedInput = updatedInput;
  if (p.updatedOutput !== undefined) out.updatedOutput = p.updatedOutput;
  if (additionalContext) out.additionalContext = additionalContext;
  if (p.systemMessage) out.systemMessage = p.systemMessage;
  return out;
}

const tail = (text: string, max = 500) => {
  const t = text.trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
};

function parseStdout(stdout: string, event: HookEventName): HookResult {
  const text = stdout.trim();
  if (text === '') return { ok: true, output: {} };
  const json = parseJson(text, 'stdout');
  if (!json.ok) {
    const why = json.problem === 'syntax' ? 'is not JSON' : json.message.replace(/^stdout /, '');
    return { ok: false, failure: { code: 'BAD_OUTPUT', message: `exited 0 but stdout ${why}: ${JSON.stringify(tail(text, 200))}` } };
  }
  const parsed = stdoutSchema.safeParse(json.value);
  if (!parsed.success) {
    return { ok: false, failure: { code: 'BAD_OUTPUT', message: `exited 0 with an invalid hook output: ${z.prettifyError(parsed.error)}` } };
  }
  return { ok: true, output: toOutput(parsed.data, event) };
}

/** Maps a process outcome to a hook result. `label` names the hook in failure messages. */
export function shellResult(outcome: ShellOutcome, event: HookEventName, label: string): HookResult {
  switch (outcome.kind) {
    case 'exited': {
      if (outcome.code === 0) return parseStdout(outcome.stdout, event);
      const reason = tail(outcome.stderr);
      if (outcome.code === EXIT_DENY) {
        const decision: HookDecision = blocksStop(event) ? 'block' : 'deny';
        return { ok: true, output: { decision, reason: reason || `${label} exited ${EXIT_DENY}` } };
      }
      if (outcome.code === EXIT_STOP) {
        return { ok: true, output: { decision: 'stop', reason: reason || `${label} exited ${EXIT_STOP}` } };
      }
      return {
        ok: false,
        failure: { code: 'TRAP', message: `${label} exited ${outcome.code}${reason ? `: ${reason}` : ''}` },
      };
    }
    case 'signaled':
      return {
        ok: false,
        failure: { code: 'TRAP', message: `${label} was killed by ${outcome.signal}${outcome.stderr.trim() ? `: ${tail(outcome.stderr)}` : ''}` },
      };
    case 'spawn-failed':
      return { ok: false, failure: { code: 'LOAD_FAILED', message: `${label} could not start: ${outcome.message}` } };
    case 'timeout':
      return { ok: false, failure: { code: 'TIMEOUT', message: `${label} did not finish within ${outcome.timeoutMs} ms (killed)` } };
    case 'aborted': {
      const timedOut = outcome.reason instanceof Error && outcome.reason.name === 'TimeoutError';
      return timedOut
        ? { ok: false, failure: { code: 'TIMEOUT', message: `${label}: ${outcome.reason instanceof Error ? outcome.reason.message : 'timed out'} (killed)` } }
        : { ok: false, failure: { code: 'ABORTED', message: `${label} was cancelled: the session was aborted` } };
    }
    default: {
      const never: never = outcome;
      return never;
    }
  }
}
