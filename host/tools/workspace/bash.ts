/**
 * Bash: `sh -c command` with the workspace as its cwd, a timeout, the
 * session's abort signal and capped output. A shell is not confined by
 * path checks: the guard-shell plugin (loaded by default by the CLI), the
 * permission question and an OS sandbox are what stand around it.
 */
import { spawn } from 'node:child_process';
import process from 'node:process';
import { z } from 'zod';
import type { ToolHandler } from '../types.js';
import { tool } from '../define.js';
import type { WorkspaceLimits } from './limits.js';

/** Keeps the first `max` characters of a stream and counts the rest. */
class Capped {
  text = '';
  dropped = 0;
  private readonly decoder = new TextDecoder();
  constructor(private readonly max: number) {}
  push(chunk: Uint8Array): void {
    const s = this.decoder.decode(chunk, { stream: true });
    const room = this.max - this.text.length;
    if (room >= s.length) this.text += s;
    else {
      this.text += s.slice(0, Math.max(0, room));
      this.dropped += s.length - Math.max(0, room);
    }
  }
  toString(): string {
    return this.dropped > 0 ? `${this.text}\n… (${this.dropped} more characters cut)` : this.text;
  }
}

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

export function bashTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Bash',
    `Run a shell command (sh -c) in the workspace folder. Output is capped at ${limits.maxOutputChars} characters per stream; timeout in ms (default ${limits.bashTimeoutMs}).`,
    z.object({
      command: z.string().min(1),
      timeout: z.number().int().positive().max(limits.bashMaxTimeoutMs).optional(),
      description: z.string().optional(),
    }),
    ({ command, timeout }, ctx) =>
      new Promise((resolve) => {
        const child = spawn('sh', ['-c', command], { cwd: root, env: commandEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        const stdout = new Capped(limits.maxOutputChars);
        const stderr = new Capped(limits.maxOutputChars);
        let stopped: string | undefined;
        const kill = (why: string) => {
          stopped ??= why;
          // The whole process group, so `sleep 100 &` children go too; fall back to the child alone.
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        };
        const limit = timeout ?? limits.bashTimeoutMs;
        const timer = setTimeout(() => kill(`timed out after ${limit} ms`), limit);
        const onAbort = () => kill('aborted');
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        child.stdout!.on('data', (d: Uint8Array) => stdout.push(d));
        child.stderr!.on('data', (d: Uint8Array) => stderr.push(d));
        const finish = (content: string, isError: boolean) => {
          clearTimeout(timer);
          ctx.signal.removeEventListener('abort', onAbort);
          resolve({ content, isError });
        };
        child.on('error', (error) => finish(`cannot run sh: ${error.message}`, true));
        child.on('close', (code, signal) => {
          const out = stdout.toString();
          const err = stderr.toString();
          const parts = [out, ...(err ? [`stderr:\n${err}`] : [])];
          if (stopped) parts.push(`(${stopped})`);
          else if (code !== 0) parts.push(`(exit ${code ?? signal})`);
          finish(parts.filter((p) => p !== '').join('\n') || '(no output)', stopped !== undefined || code !== 0);
        });
      }),
  );
}
