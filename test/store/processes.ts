// Helpers for tests that run `wasmhooks serve` as real processes (the CLI
// bundle on Node) and talk to them over HTTP and SSE.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliBundle } from '../cli/helpers.js';
import { sseMessages, textReader } from '../fixtures/sse-messages.js';

const repo = resolve(import.meta.dirname, '../..');
const CALC = join(repo, 'plugins/calc/build/calc.wasm');

/** "calc …" asks for the calc tool (a permission question in the default mode); anything else is answered at once. */
export function scriptDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-replicas-'));
  writeFileSync(
    join(dir, 'script.json'),
    JSON.stringify({
      rules: [
        { when: { lastToolName: 'calc' }, reply: { text: 'Computed.' } },
        { when: { lastUser: '^calc' }, reply: { text: 'Computing.', toolCalls: [{ name: 'calc', input: { expression: '6*7' } }] } },
        { when: { lastUser: '' }, reply: { text: 'Hello.' } },
      ],
    }),
  );
  return dir;
}

export interface Replica {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

export async function startReplica(cwd: string, args: string[]): Promise<Replica> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', await cliBundle(), 'serve', '--port', '0', '--script', 'script.json', '--plugin', CALC, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', r));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 15_000);
    const check = () => {
      const m = /serving on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`serve exited early: ${out}`)));
  });
  return {
    url,
    child,
    exited,
    output: () => out,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function json(url: string, method = 'GET', body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method,
    ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

export interface SseMessage {
  id: string | undefined;
  data: any;
}

/** An SSE connection: `next(pred)` waits for the first message (after those already taken) that matches. */
export interface SseClient {
  next(pred: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  readonly messages: SseMessage[];
  /** Resolves when the server ends the stream (true: cleanly). */
  readonly ended: Promise<boolean>;
  close(): void;
}

export async function sse(url: string, lastEventId?: string): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: lastEventId ? { 'last-event-id': lastEventId } : {}, signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`SSE ${url}: ${res.status}`);
  const messages: SseMessage[] = [];
  let wake: (() => void) | undefined;
  let cursor = 0;
  const ended = (async () => {
    try {
      for await (const message of sseMessages<SseMessage['data']>(textReader(res))) {
        messages.push(message);
        wake?.();
      }
      return true;
    } catch {
      return false;
    } finally {
      wake?.();
    }
  })();
  return {
    messages,
    ended,
    async next(pred, timeoutMs = 8000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (cursor < messages.length) {
          const m = messages[cursor++]!;
          if (pred(m)) return m;
        }
        if (Date.now() > deadline) throw new Error(`no matching SSE message in ${timeoutMs} ms; got ${messages.map((m) => m.data.type ?? m.data.event?.type).join(', ')}`);
        await Promise.race([new Promise<void>((r) => (wake = r)), new Promise((r) => setTimeout(r, 50)), ended]);
      }
    },
    close: () => controller.abort(),
  };
}

export const type = (t: string) => (m: SseMessage) => (m.data.event?.type ?? m.data.type) === t;
