/**
 * Runs one shell command with input on stdin, a deadline and an abort
 * signal, and reports how it ended as data. Uses `node:child_process`, which
 * Node, Deno and Bun all implement.
 */
import type { ChildProcess } from 'node:child_process';
import { timerDelay } from '../timer.js';

/** What a command printed: up to `maxOutputBytes` of each stream, and how many bytes past that were dropped. */
interface ShellOutput {
  stdout: string;
  stderr: string;
  dropped: { stdout: number; stderr: number };
}

/** How a command ended. Contract: `runShell` never throws; every outcome is one of these. */
export type ShellOutcome =
  | ({ kind: 'exited'; code: number; durationMs: number } & ShellOutput)
  /** Killed by a signal it did not get from us (a crash, an outside kill). */
  | ({ kind: 'signaled'; signal: string; durationMs: number } & ShellOutput)
  | { kind: 'spawn-failed'; message: string; durationMs: number }
  | ({ kind: 'timeout'; timeoutMs: number; durationMs: number } & ShellOutput)
  | ({ kind: 'aborted'; reason: unknown; durationMs: number } & ShellOutput);

export interface ShellRunOptions {
  /** Written to stdin, then stdin is closed. */
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Output kept per stream; the rest is dropped. Default 1 MiB. */
  maxOutputBytes?: number;
}

const DEFAULT_MAX_OUTPUT = 1 << 20;

/**
 * Signals the whole process group of a child spawned with `detached: true` (the shell or MCP server
 * and whatever it started), falling back to the child alone.
 */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    globalThis.process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function collector(max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    push(chunk: Buffer) {
      const part = chunk.subarray(0, Math.max(0, max - size));
      dropped += chunk.length - part.length;
      if (part.length === 0) return;
      chunks.push(part);
      size += part.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    get dropped() {
      return dropped;
    },
  };
}

/**
 * Spawns `sh -c command` in its own process group. A timeout or an abort
 * kills the group, and so does the shell's exit: what it started in the
 * background (`cmd &`) ends with it instead of running on past the call's
 * deadline. (A child that leaves the group with `setsid` is beyond this;
 * an OS sandbox is what stands there.)
 *
 * @example
 * const out = await runShell('jq .tool_name', { stdin: JSON.stringify(input), timeoutMs: 5000 });
 * if (out.kind === 'exited' && out.code === 0) console.log(out.stdout);
 */
export async function runShell(command: string, options: ShellRunOptions): Promise<ShellOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  if (options.signal?.aborted) return { kind: 'aborted', reason: options.signal.reason, durationMs: 0, stdout: '', stderr: '', dropped: { stdout: 0, stderr: 0 } };
  // Loaded here, not at the top: the main entry must not pull Node builtins (test/package/barrel-clean).
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn('sh', ['-c', command], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      resolve({ kind: 'spawn-failed', message: error instanceof Error ? error.message : String(error), durationMs: elapsed() });
      return;
    }
    const stdout = collector(max);
    const stderr = collector(max);
    let ended: 'timeout' | 'aborted' | undefined;
    let settled = false;
    const finish = (outcome: ShellOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // A process that left the group (`setsid cmd &`) and holds the pipes would keep 'close' from ever firing:
    // once the shell has exited past the deadline, the pipes are let go.
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    const release = () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const stop = (why: 'timeout' | 'aborted') => {
      ended ??= why;
      killTree(child);
      if (exited()) release();
    };
    const onAbort = () => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), timerDelay(options.timeoutMs));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout?.on('data', (c: Buffer) => stdout.push(c));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c));
    // A hook that never reads stdin closes the pipe early; that is not a failure.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.stdin);

    child.on('error', (error) => {
      finish({ kind: 'spawn-failed', message: error.message, durationMs: elapsed() });
    });
    // Background jobs still holding the pipes would otherwise keep 'close' waiting, and outlive the call.
    child.on('exit', () => {
      killTree(child);
      if (ended) release();
    });
    // 'close' (not 'exit') so that stdout and stderr are complete.
    child.on('close', (code, signal) => {
      const durationMs = elapsed();
      const output: ShellOutput = { stdout: stdout.text(), stderr: stderr.text(), dropped: { stdout: stdout.dropped, stderr: stderr.dropped } };
      if (ended === 'timeout') finish({ kind: 'timeout', timeoutMs: options.timeoutMs, durationMs, ...output });
      else if (ended === 'aborted') finish({ kind: 'aborted', reason: options.signal?.reason, durationMs, ...output });
      else if (code !== null) finish({ kind: 'exited', code, durationMs, ...output });
      else finish({ kind: 'signaled', signal: signal ?? 'unknown', durationMs, ...output });
    });
  });
}
