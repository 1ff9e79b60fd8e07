// A real redis-server for the tests: a free loopback port, a temp dir, AOF
// on (fsync always) so a restart keeps the data, unless `persist: false`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REDIS_BIN = process.env.WASMHOOKS_REDIS_SERVER ?? '/usr/bin/redis-server';
export const HOW_TO_INSTALL = `redis-server not found at ${REDIS_BIN}: install it with \`apt-get install -y redis-server\` (Debian), or set WASMHOOKS_REDIS_SERVER`;

export function haveRedis(): boolean {
  return existsSync(REDIS_BIN) && spawnSync(REDIS_BIN, ['--version']).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** SIGKILL (the default) or SIGTERM; resolves when it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisServer> {
  if (!haveRedis()) throw new Error(HOW_TO_INSTALL);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-redis-'));
  const persist = options.persist ?? true;
  let child: ChildProcess | undefined;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--protected-mode', 'yes', '--daemonize', 'no'];
  if (persist) args.push('--appendonly', 'yes', '--appendfsync', 'always');
  const start = async () => {
    const c = spawn(REDIS_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 5000);
      c.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  };
  const stop = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill(signal);
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
