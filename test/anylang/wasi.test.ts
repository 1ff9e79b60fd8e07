// WASI preview1 on the caller's thread: a C plugin on wasi-libc loads,
// logs, reads only what it was granted, and is stopped inside WASI calls.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { GATED_CALL_FUEL as HOST_CALL_FUEL } from '../../host/sandbox/instrument/hostcalls.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { CallOutcome, SandboxOptions } from '../../host/sandbox/types.js';
import { str, text, wasiGuard } from './helpers.js';

const out = (o: CallOutcome) => (o.ok ? str(o.output) : `${o.failure.code}: ${o.failure.message}`);

async function sandbox(options: SandboxOptions = {}, logs: Array<[string, string]> = []) {
  return createSandbox(await wasiGuard(), {
    wasi: true,
    limits: { timeoutMs: 2_000 },
    host: { onLog: (level, message) => logs.push([level, message]) },
    ...options,
  });
}

describe('WASI: off by default', () => {
  it('refuses a WASI module without the option, saying how to enable it', async () => {
    const error = await createSandbox(await wasiGuard()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('LOAD_FAILED');
    expect((error as Error).message).toMatch(/imports WASI .*wasi: true/);
  });

  it('rejects a malformed wasi option', async () => {
    await expect(createSandbox(await wasiGuard(), { wasi: { preopens: { relative: '/tmp' } } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(createSandbox(await wasiGuard(), { wasi: { env: { 'A=B': 'x' } } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('WASI: true', () => {
  it('loads (constructors run), describes, and logs stderr lines as plugin logs', async () => {
    const logs: Array<[string, string]> = [];
    const s = await sandbox({}, logs);
    expect(s.exports).toContain('hook');
    expect(s.exports).not.toContain('__wasmhooks_initialize');
    const described = await s.call('describe', new Uint8Array());
    expect(described.ok).toBe(true);
    const hook = await s.call('hook', text('{"command":"rm -rf /"}'));
    expect(hook.ok).toBe(true);
    expect(logs).toContainEqual(['warn', 'wasi-guard: denied a 22-byte request']);
    await s.close();
  });

  it('gives no args, no env, but random bytes and the clock', async () => {
    const s = await sandbox();
    expect(out(await s.call('args_env', new Uint8Array()))).toBe('');
    const entropy = out(await s.call('entropy', new Uint8Array()));
    const [hex, seconds] = entropy.split(' ');
    expect(hex).toMatch(/^[0-9a-f]{32}$/);
    expect(Math.abs(Number(seconds) - Date.now() / 1000)).toBeLessThan(60);
    await s.close();
  });

  it('cannot open files: nothing is preopened', async () => {
    const s = await sandbox();
    expect(out(await s.call('read_file', text('/etc/passwd')))).toMatch(/^error: /);
    expect(out(await s.call('write_file', text('/tmp/x')))).toMatch(/^error: /);
    await s.close();
  });

  it('turns proc_exit into an outcome: 0 is ok, anything else PLUGIN_ERROR with the code', async () => {
    const logs: Array<[string, string]> = [];
    const s = await sandbox({}, logs);
    expect((await s.call('quit', text('0'))).ok).toBe(true);
    const failed = await s.call('quit', text('3'));
    expect(failed.ok ? 'ok' : failed.failure).toEqual({ code: 'PLUGIN_ERROR', message: 'the plugin exited with code 3' });
    expect(logs).toContainEqual(['info', 'quitting with 3']);
    // The instance that exited is rebuilt for the next call.
    expect((await s.call('describe', new Uint8Array())).ok).toBe(true);
    await s.close();
  });
});

describe('WASI: the object form', () => {
  it('grants args, env and a read-only directory, and nothing outside it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'wasi-grant-'));
    await mkdir(join(root, 'rules'));
    await writeFile(join(root, 'rules', 'hello.txt'), 'hello from the host');
    await writeFile(join(root, 'secret.txt'), 'not granted');
    const s = await sandbox({ wasi: { args: ['guard', '--strict'], env: { MODE: 'strict' }, preopens: { '/rules': join(root, 'rules') } } });
    expect(out(await s.call('args_env', new Uint8Array()))).toBe('arg guard\narg --strict\nenv MODE=strict\n');
    expect(out(await s.call('read_file', text('/rules/hello.txt')))).toBe('read 19 bytes: hello from the host');
    expect(out(await s.call('read_file', text('/rules/../secret.txt')))).toMatch(/^error: /);
    expect(out(await s.call('read_file', text(join(root, 'secret.txt'))))).toMatch(/^error: /);
    expect(out(await s.call('write_file', text('/rules/new.txt')))).toMatch(/^error: .*read-only/i);
    await s.close();
  });
});

describe('WASI: limits inside WASI calls', () => {
  it('stops a loop of clock calls at the deadline, and one of writes by fuel', async () => {
    const s = await sandbox({ limits: { timeoutMs: 50, fuel: 1e15 }, quarantine: { maxConsecutiveFailures: 100 } });
    const started = performance.now();
    const timed = await s.call('spin_clock', new Uint8Array());
    expect(timed.ok ? 'ok' : timed.failure.code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(1_000);
    const burnt = await s.call('spin_write', new Uint8Array(), { limits: { timeoutMs: 5_000, fuel: 2_000_000 } });
    expect(burnt.ok ? 'ok' : burnt.failure.code).toBe('FUEL_EXHAUSTED');
    expect(burnt.fuelUsed).toBeLessThan(2_100_000);
    await s.close();
  });

  it('charges every WASI call to the call\'s fuel once (HOST_CALL_FUEL, by its import wrapper, on top of the plugin\'s own code)', async () => {
    const s = await sandbox();
    const none = await s.call('clocks', text('0'));
    const many = await s.call('clocks', text('10000'));
    expect(none.ok && many.ok).toBe(true);
    expect(many.fuelUsed - none.fuelUsed).toBeGreaterThanOrEqual(10_000 * HOST_CALL_FUEL);
    // Once: not a second constant and clock read in the WASI function itself (the loop's own code is ~40 per call).
    expect(many.fuelUsed - none.fuelUsed).toBeLessThan(10_000 * (HOST_CALL_FUEL + 100));
    const poor = await s.call('clocks', text('10000'), { limits: { fuel: 500_000 } });
    expect(poor.ok ? 'ok' : poor.failure.code).toBe('FUEL_EXHAUSTED');
    await s.close();
  });

  it('stops a sleep past the deadline at once', async () => {
    const s = await sandbox({ limits: { timeoutMs: 200 } });
    const started = performance.now();
    const slept = await s.call('nap', new Uint8Array());
    expect(slept.ok ? 'ok' : slept.failure.code).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(150);
    await s.close();
  });

  it('caps one write at 64 KiB and log lines at 4096 characters', async () => {
    const logs: Array<[string, string]> = [];
    const s = await sandbox({}, logs);
    const big = 'x'.repeat(200_000);
    expect(out(await s.call('shout', text(big)))).toBe('ok');
    expect(logs.every(([, m]) => m.length <= 4096)).toBe(true);
    expect(logs.map(([, m]) => m).join('')).toBe(big);
    await s.close();
  });
});
