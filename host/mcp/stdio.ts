/**
 * The stdio transport to an MCP server process, in its own process group.
 * The SDK's `StdioClientTransport` signals only the process it spawned: a
 * server started as `sh -c '…'`, through `npx`, or that starts helpers of
 * its own left them running after `host.close()` (re-parented to init, with
 * whatever the user's `env` gave them). Here the server leads a process
 * group and every stop, and its own exit, ends the whole group. The framing
 * is the SDK's (`ReadBuffer`, `serializeMessage`).
 */
import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killTree } from '../shell/run.js';
import { NOT_READING } from './bounds.js';

/** How a stdio server is started (the config's fields, plus the message cap). */
export interface StdioServerSpawn {
  command: string;
  args?: string[] | undefined;
  env?: Record<string, string> | undefined;
  cwd?: string | undefined;
  maxBufferSize: number;
  /** What the server writes to stderr (not to the host's: it is the server's, and can be a flood). */
  onStderr(chunk: string): void;
}

/** Time a server gets to exit after its stdin ends, and again after SIGTERM, as the SDK gives it. */
const GRACE_MS = 2_000;
/** After the server's exit, the time its pipes are read on (what it wrote last) before they are let go of. */
const RELEASE_MS = 500;

/** Bytes of ours a server may leave unread when we answer one of its requests (a ping is 40). */
const MAX_UNREAD_ANSWERS = 1 << 20;

/**
 * Requests of the server's that the host has read and not answered yet. Past it the server's stdout is
 * no longer read until the answers catch up, so a flood waits in the server's pipe (back-pressure), not in
 * the host's memory as pending handlers: on Bun, which delivers a child's output chunk after chunk without
 * running the answers' promise callbacks (or timers) in between, 740,000 pings' handlers piled up (3.4 GB,
 * 18 s) before the first answer was written. The host answers every request at once (pings, refusals).
 */
const MAX_UNANSWERED = 256;

/** Groups still running, killed if the host's process exits without closing them. */
const live = new Set<ChildProcess>();
let exitHook = false;

/** A stdio transport whose server runs in its own process group (see the file's comment). */
export async function groupStdioTransport(spec: StdioServerSpawn): Promise<Transport> {
  // Loaded here: the main entry must not pull Node builtins (test/package/barrel-clean).
  const [{ spawn }, { getDefaultEnvironment }, { ReadBuffer, serializeMessage }] = await Promise.all([
    import('node:child_process'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
  ]);
  if (!exitHook) {
    exitHook = true;
    globalThis.process.once('exit', () => {
      for (const child of live) killTree(child);
    });
  }
  const buffer = new ReadBuffer({ maxBufferSize: spec.maxBufferSize });
  let child: ChildProcess | undefined;
  /** Characters written to the server's stdin that have not reached the pipe yet. */
  let unread = 0;
  /** The server's requests handed on and not answered yet (MAX_UNANSWERED). */
  let unanswered = 0;
  /** Not reading the server's stdout (MAX_UNANSWERED); what was read waits in `buffer`. */
  let held = false;
  /** Hands on every whole message read, until the host owes too many answers. */
  const deliver = (): void => {
    while (!held) {
      let message: JSONRPCMessage | null;
      try {
        message = buffer.readMessage();
      } catch (error) {
        transport.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      if ('method' in message && 'id' in message && ++unanswered >= MAX_UNANSWERED) {
        held = true;
        child?.stdout?.pause();
      }
      transport.onmessage?.(message);
    }
  };
  const transport: Transport = {
    async start() {
      if (child) throw new Error('the MCP server is already started');
      const proc = spawn(spec.command, spec.args ?? [], {
        env: { ...getDefaultEnvironment(), ...spec.env },
        ...(spec.cwd ? { cwd: spec.cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: true,
      });
      child = proc;
      proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => spec.onStderr(chunk));
      await new Promise<void>((resolve, reject) => {
        proc.once('error', reject);
        proc.once('spawn', () => {
          proc.off('error', reject);
          resolve();
        });
      });
      live.add(proc);
      proc.on('error', (error) => transport.onerror?.(error));
      // What the server left running (`cmd &`, helpers) ends with it: they hold its stdout, and until that
      // closes no call learns the server is gone (a crash mid-call waited for the call's whole timeout).
      // One that left the group (`setsid`) is beyond a signal; the pipes are let go of after a moment.
      proc.once('exit', () => {
        killTree(proc);
        setTimeout(() => {
          proc.stdout?.destroy();
          proc.stderr?.destroy();
        }, RELEASE_MS).unref?.();
      });
      proc.once('close', () => {
        live.delete(proc);
        if (child === proc) child = undefined;
        transport.onclose?.();
      });
      proc.stdin?.on('error', (error) => transport.onerror?.(error));
      proc.stdout?.on('error', (error) => transport.onerror?.(error));
      proc.stdout?.on('data', (chunk: Buffer) => {
        try {
          buffer.append(chunk);
        } catch (error) {
          transport.onerror?.(error as Error);
          void transport.close();
          return;
        }
        deliver();
      });
    },
    send(message: JSONRPCMessage) {
      const stdin = child?.stdin;
      if (!stdin) return Promise.reject(new Error('the MCP server is not running'));
      // A server that never reads, while it sends requests (pings) as fast as it can, had each answer of ours
      // buffered for ever, and each request's handler state held until its answer drained: 1.1 GB in seconds in
      // the test. What the server drives us to send, answers, is refused past MAX_UNREAD_ANSWERS unread (our own
      // requests come at the agent's pace); and a send never waits, so no state is held per message.
      if (!('method' in message) && unread > MAX_UNREAD_ANSWERS) {
        const error = new Error(`${NOT_READING} (over ${MAX_UNREAD_ANSWERS} bytes unread while it sends requests); it is stopped`);
        transport.onerror?.(error);
        // No grace: it is not reading the end of its stdin either.
        if (child) killTree(child);
        void transport.close();
        return Promise.reject(error);
      }
      if (!('method' in message) && unanswered > 0 && --unanswered < MAX_UNANSWERED / 2 && held) {
        held = false;
        // After this send returns: what was read is handed on outside the SDK's call into us.
        queueMicrotask(() => {
          deliver();
          if (!held) child?.stdout?.resume();
        });
      }
      // Counted by the write callbacks, not `writableLength`: Bun's stays 0 while it buffers.
      const line = serializeMessage(message);
      unread += line.length;
      stdin.write(line, () => (unread -= line.length));
      return Promise.resolve();
    },
    async close() {
      const proc = child;
      child = undefined;
      buffer.clear();
      if (!proc) return;
      const closed = new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) resolve();
        else proc.once('exit', () => resolve());
      });
      const within = (ms: number) => Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref?.())]);
      // As the SDK: stdin's end first (a server's own clean exit), then SIGTERM, then SIGKILL; to the group each time.
      try {
        proc.stdin?.end();
      } catch {
        // already gone
      }
      if (!(await within(GRACE_MS))) {
        killTree(proc, 'SIGTERM');
        if (!(await within(GRACE_MS))) killTree(proc);
      }
      killTree(proc);
      live.delete(proc);
    },
  };
  return transport;
}
