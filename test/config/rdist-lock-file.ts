// rdist (red team of distribution): wasmhooks.lock comes with a cloned repository and is read on every load of
// its config (`run`, `serve`, `mcp`, materializeConfig), trusted or not, before anything runs. It was read with
// readFile: a lock that is a FIFO hung the load for good (the open waits for a writer), a link to /dev/zero was
// read until the string length ran out (~600 MB resident), and a huge file was read whole. It is now read as the
// config is: a regular file, opened without blocking, at most 4 MiB. Run by rdist-lock-file.test.ts (Node,
// from the source) and test/xrt/rdist.xrt.ts (Node, Deno, Bun, from dist/).
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Deps {
  loadConfig(path: string): Promise<unknown>;
  materializeConfig(config: never): Promise<{ close(): Promise<void> }>;
}

const fail = (message: string): never => {
  throw new Error(message);
};

/** What loading the config beside `lock` (made by `make`) comes to within 5 s: the error's code and message, or 'loaded' / 'still waiting'. */
async function loadBeside(deps: Deps, make: (lock: string) => void): Promise<{ outcome: string; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-rdist-lock-'));
  const file = join(dir, 'wasmhooks.json');
  const lock = join(dir, 'wasmhooks.lock');
  writeFileSync(file, '{}\n');
  make(lock);
  const started = performance.now();
  try {
    const load = (async () => {
      const parts = await deps.materializeConfig((await deps.loadConfig(file)) as never);
      await parts.close();
      return 'loaded';
    })().catch((e: { code?: string; message?: string }) => `${e.code ?? 'no code'}: ${e.message ?? String(e)}`);
    const outcome = await Promise.race([load, new Promise<string>((r) => setTimeout(() => r('still waiting'), 5_000))]);
    return { outcome, ms: performance.now() - started };
  } finally {
    // A reader stuck opening the FIFO (the old code) is let go, so the runtime can exit.
    try {
      closeSync(openSync(lock, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no FIFO, or nobody waiting on it
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function lockFileNotRegular(deps: Deps): Promise<void> {
  const fifo = await loadBeside(deps, (lock) => execFileSync('mkfifo', [lock]));
  if (!/^INVALID_CONFIG: .*wasmhooks\.lock: not a regular file/.test(fifo.outcome)) fail(`a FIFO lock: ${fifo.outcome}`);

  const device = await loadBeside(deps, (lock) => symlinkSync('/dev/zero', lock));
  if (!/^INVALID_CONFIG: .*wasmhooks\.lock: not a regular file/.test(device.outcome)) fail(`a lock linked to /dev/zero: ${device.outcome}`);
  if (device.ms > 2_000) fail(`a lock linked to /dev/zero took ${Math.round(device.ms)} ms to refuse`);

  const huge = await loadBeside(deps, (lock) => {
    writeFileSync(lock, '');
    truncateSync(lock, 5 << 20);
  });
  if (!/^INVALID_CONFIG: .*wasmhooks\.lock: \d+ bytes, more than 4194304/.test(huge.outcome)) fail(`a 5 MiB lock: ${huge.outcome}`);

  // A lock as plugin add writes it still loads.
  const fine = await loadBeside(deps, (lock) => writeFileSync(lock, '{ "lockfileVersion": 1, "plugins": {} }\n'));
  if (fine.outcome !== 'loaded') fail(`a valid lock: ${fine.outcome}`);
}
