/**
 * Turns how a shell hook's process ended into a `HookResult`, following the
 * convention users bring from other agent SDKs:
 *
 * | process | result |
 * | --- | --- |
 * | exit 0, empty stdout | continue |
 * | exit 0, stdout starting with `{` | a JSON answer: ours or Claude Code's (`{"decision":"allow"}`, `{"hookSpecificOutput":{…}}`; read by hooks/output.ts) |
 * | exit 0, such JSON that does not parse or has an unknown key | BAD_OUTPUT failure |
 * | exit 0, any other stdout (plain text) | Claude Code's rule (hooks/output.ts `plainOutput`): context for the model on UserPromptSubmit/SessionStart, no opinion elsewhere |
 * | exit 2 | Claude Code's block (hooks/output.ts `blockOutput`): deny; block for Stop/SubagentStop; stderr to the model on PostToolUse/PostToolUseFailure, to the user (systemMessage) on observe-only events |
 * | exit 49 | stop (halt the turn), reason = stderr |
 * | other exit code, signal | TRAP failure |
 * | cannot start | LOAD_FAILED failure |
 * | deadline passed | TIMEOUT failure (the process group is killed) |
 *
 * A failure is never a decision by itself: the failure policy decides.
 */
import type { HookEventName, HookResult } from '../hooks/types.js';
import { blockOutput, plainOutput, readHookOutput } from '../hooks/output.js';
import type { ShellOutcome } from './run.js';
import { parseJson } from '../json.js';

const EXIT_DENY = 2;
const EXIT_STOP = 49;

const tail = (text: string, max = 500) => {
  const t = text.trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
};

function parseStdout(stdout: string, event: HookEventName, toolName: string | undefined): HookResult {
  const text = stdout.trim();
  if (text === '') return { ok: true, output: {} };
  // Text that does not open as a JSON object is Claude Code's plain output ("[info] …" log lines too). What opens as
  // one is meant as an answer, and one we cannot read stays BAD_OUTPUT (Claude Code would log it as text): a guard's
  // cut or mistyped deny must not pass as a log line.
  if (!text.startsWith('{')) return { ok: true, output: plainOutput(event, text) };
  // Unique keys, as a plugin's JSON (protocol/codec.ts): a shell hook's answer decides things (a
  // decision, a rewritten input), so a key named twice or "__proto__" (zod drops it silently) is refused.
  const json = parseJson(text, 'stdout', { uniqueKeys: true });
  if (!json.ok) {
    const why = json.problem === 'syntax' ? 'is not JSON' : json.message.replace(/^stdout /, '');
    return { ok: false, failure: { code: 'BAD_OUTPUT', message: `exited 0 but stdout ${why}: ${JSON.stringify(tail(text, 200))}` } };
  }
  const read = readHookOutput(event, json.value, toolName);
  if (!read.ok) return { ok: false, failure: { code: 'BAD_OUTPUT', message: `exited 0 with an invalid hook output: ${read.message}` } };
  return { ok: true, output: read.output };
}

/** Maps a process outcome to a hook result. `label` names the hook in failure messages; `toolName`: the call's tool on a tool event. */
export function shellResult(outcome: ShellOutcome, event: HookEventName, label: string, toolName?: string): HookResult {
  switch (outcome.kind) {
    case 'exited': {
      if (outcome.code === 0) return parseStdout(outcome.stdout, event, toolName);
      const reason = tail(outcome.stderr);
      if (outcome.code === EXIT_DENY) return { ok: true, output: blockOutput(event, reason || `${label} exited ${EXIT_DENY}`) };
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
