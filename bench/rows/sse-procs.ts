/**
 * The processes of the SSE row (sse.ts): the two servers (sse-server.mjs, on
 * the bench's runtime), their client processes (sse-clients.mjs, always Node),
 * and the check that ours runs from a dist/ built from the current sources.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { runtimeName as runtimeKind } from '../../host/runtime/serve.js';

export const CLIENTS = 200;
/** A run that has not finished by then is stopped and reported as such. */
const RUN_LIMIT_MS = 30_000;

/** A child process that speaks one JSON object a line on stdout (and reads them on stdin). */
class Child {
  readonly #queue: unknown[] = [];
  #waiter: ((m: unknown) => void) | undefined;
  #failed: Error | undefined;
  #fail: ((e: Error) => void) | undefined;

  constructor(readonly process: ChildProcess) {
    createInterface({ input: process.stdout! }).on('line', (line) => {
      let m: unknown;
      try {
        m = JSON.parse(line);
      } catch {
        return; // not ours (a runtime's notice)
      }
      if (this.#waiter) this.#waiter(m);
      else this.#queue.push(m);
    });
    const fail = (e: Error) => {
      this.#failed ??= e;
      this.#fail?.(e);
    };
    process.once('error', fail);
    process.once('exit', (code) => fail(new Error(`${process.spawnfile} exited with ${code}`)));
  }

  send(m: unknown): void {
    this.process.stdin!.write(`${JSON.stringify(m)}\n`);
  }

  /** The next message, within the run's time limit. */
  next<T>(): Promise<T> {
    if (this.#queue.length > 0) return Promise.resolve(this.#queue.shift() as T);
    if (this.#failed) return Promise.reject(this.#failed);
    let timer: ReturnType<typeof setTimeout> | undefined;
    return new Promise<T>((resolve, reject) => {
      this.#waiter = (m) => resolve(m as T);
      this.#fail = reject;
      timer = setTimeout(() => reject(new Error(`SSE run did not finish within ${RUN_LIMIT_MS / 1000} s`)), RUN_LIMIT_MS);
    }).finally(() => {
      clearTimeout(timer);
      this.#waiter = undefined;
      this.#fail = undefined;
    });
  }

  kill(): void {
    this.process.kill();
  }
}

const here = (file: string) => new URL(`./${file}`, import.meta.url).pathname;

/** The clients: a Node process on every runtime, so every server meets the same load generator. */
export function clients(urls: string[], events: number, count: boolean): Child {
  const args = [here('sse-clients.mjs'), JSON.stringify({ urls, clients: CLIENTS, events, count })];
  return new Child(spawn('node', args, { stdio: ['ignore', 'pipe', 'inherit'] }));
}

/** A server of this row, in a process of its own on this runtime (sse-server.mjs): ours (dist/) or the anchor. */
export interface Server {
  child: Child;
  url: string;
}

export async function startServer(kind: 'ours' | 'anchor', limit: number): Promise<Server> {
  const argv = [here('sse-server.mjs'), kind, String(limit)];
  const runtime = runtimeKind();
  const args = runtime === 'deno' ? ['run', '-A', '--quiet', ...argv] : runtime === 'bun' ? argv : ['--no-warnings', ...argv];
  const child = new Child(spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] }));
  const { url } = await child.next<{ url: string }>();
  return { child, url };
}

/** Why ours cannot run: dist/ missing, or older than the server's sources (it would measure stale code). */
export async function distProblem(): Promise<string | undefined> {
  const built = await stat(new URL('../../dist/server.js', import.meta.url)).catch(() => undefined);
  if (!built) return 'dist/ is not built (run `WASMHOOKS_NO_DTS=1 npx tsup`)';
  for (const dir of ['../../host/server/', '../../host/runtime/']) {
    const url = new URL(dir, import.meta.url);
    for (const name of await readdir(url)) {
      if ((await stat(new URL(name, url))).mtimeMs > built.mtimeMs) return `dist/ is older than host/${dir.split('/').at(-2)}/${name} (run \`WASMHOOKS_NO_DTS=1 npx tsup\`)`;
    }
  }
  return undefined;
}

