/**
 * Bash: `sh -c command` with the workspace as its cwd, a timeout, the
 * session's abort signal and capped output. A shell is not confined by
 * path checks: the guard-shell plugin (loaded by default by the CLI), the
 * permission question and an OS sandbox are what stand around it.
 */
import process from 'node:process';
import { z } from 'zod';
import type { ToolHandler } from '../types.js';
import { runShell, type ShellOutcome } from '../../shell/run.js';
import { tool, type JsToolReturn } from '../define.js';
import type { WorkspaceLimits } from './limits.js';

/**
 * The credentials the host itself reads (model API keys, the server token)
 * are not passed to the model's commands: `echo $ANTHROPIC_API_KEY` must not
 * hand the key to the model. Everything else in the environment is.
 */
const WITHHELD_ENV = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'WASMHOOKS_TOKEN'] as const;

function commandEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !(WITHHELD_ENV as readonly string[]).includes(k)) env[k] = v;
  return env;
}

const cut = (text: string, dropped: number) => (dropped > 0 ? `${text}\n… (${dropped} more bytes cut)` : text);

/** What the model sees: stdout, then stderr, then how the command ended if not with exit 0. */
function bashResult(outcome: ShellOutcome): JsToolReturn & { isError: boolean } {
  if (outcome.kind === 'spawn-failed') return { content: `cannot run sh: ${outcome.message}`, isError: true };
  const parts = [cut(outcome.stdout, outcome.dropped.stdout)];
  if (outcome.stderr || outcome.dropped.stderr) parts.push(`stderr:\n${cut(outcome.stderr, outcome.dropped.stderr)}`);
  let ended: string | undefined;
  switch (outcome.kind) {
    case 'exited':
      ended = outcome.code === 0 ? undefined : `(exit ${outcome.code})`;
      break;
    case 'signaled':
      ended = `(exit ${outcome.signal})`;
      break;
    case 'timeout':
      ended = `(timed out after ${outcome.timeoutMs} ms)`;
      break;
    case 'aborted':
      ended = '(aborted)';
      break;
    default: {
      const never: never = outcome;
      return never;
    }
  }
  if (ended) parts.push(ended);
  return { content: parts.filter((p) => p !== '').join('\n') || '(no output)', isError: ended !== undefined };
}

export function bashTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Bash',
    `Run a shell command (sh -c) in the workspace folder. Output is capped at ${limits.maxOutputBytes} bytes per stream; timeout in ms (default ${limits.bashTimeoutMs}); background jobs end when the command does.`,
    z.object({
      command: z.string().min(1),
      timeout: z.number().int().positive().max(limits.bashMaxTimeoutMs).optional(),
      description: z.string().optional(),
    }),
    async ({ command, timeout }, ctx) =>
      bashResult(
        await runShell(command, {
          stdin: '',
          timeoutMs: timeout ?? limits.bashTimeoutMs,
          signal: ctx.signal,
          cwd: root,
          env: commandEnv(),
          maxOutputBytes: limits.maxOutputBytes,
        }),
      ),
  );
}
