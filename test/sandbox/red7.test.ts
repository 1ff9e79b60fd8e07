// Red review (red7): holes of the sandbox and the plugin layer, each test failing on the code before its fix.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import { expectFuelNotDeadline, hostile } from './sandbox-helpers.js';

describe('blocks an embedder host function stores count like alloc', () => {
  // Extism's alloc sums every block of the call: a loop of empty ctx.store calls cost the host n²/2 block
  // visits at a flat 1,000 fuel a call, so under a 5 s deadline the default budget ran into the deadline.
  it('a loop of empty stores runs out of fuel, not into a long deadline', async () => {
    const hostFunctions = { stash: { params: [], results: ['i64' as const], fn: (ctx: { store(v: string): bigint }) => ctx.store('') } };
    const sandbox = await createSandbox(await hostile('host-store-spin'), { name: 'host-store-spin', hostFunctions, limits: { timeoutMs: 5000, fuel: 1e9 } });
    // ~150 ms here; the old code ran to the 5 s deadline.
    await expectFuelNotDeadline(sandbox, 2000);
  }, 30_000);

  it('their bytes count toward the memory cap with the call\'s other blocks (MEMORY_LIMIT)', async () => {
    const value = new Uint8Array(256 * 1024);
    const hostFunctions = { stash: { params: [], results: ['i64' as const], fn: (ctx: { store(v: Uint8Array): bigint }) => ctx.store(value) } };
    const sandbox = await createSandbox(await hostile('host-store-spin'), { name: 'host-store-spin', hostFunctions, limits: { timeoutMs: 5000, maxMemoryPages: 16 } });
    try {
      const out = await sandbox.call('run', new Uint8Array());
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.failure).toMatchObject({ code: 'MEMORY_LIMIT', message: expect.stringMatching(/host function stored 262144 bytes/) });
    } finally {
      await sandbox.close();
    }
  });
});

describe("a plugin's progress goes to the call that sent it", () => {
  // Worker isolation: a hook call's progress arrives with its answer. The tool call made meanwhile (another
  // session) held the plugin's one progress slot while it waited its turn, and got the hook's message.
  it('a hook call running when a tool call queues: its progress reaches nobody; the tool gets its own', async () => {
    const { loadPlugin } = await import('../../host/plugins/load.js');
    const plugin = await loadPlugin({ bytes: await hostile('progress-in-hook') }, { isolation: 'worker', limits: { timeoutMs: 10_000, fuel: 1e10 } });
    try {
      const seen: string[] = [];
      const hook = plugin.callHook({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as never);
      const tool = plugin.callTool('Work', {}, { signal: new AbortController().signal, onProgress: (m: string) => void seen.push(m), toolUseId: 'u', context: { session_id: 's', cwd: '/', hook_event_name: 'PreToolUse' } } as never);
      await Promise.all([hook, tool]);
      expect(seen).toEqual(['from-tool']);
    } finally {
      await plugin.close();
    }
  }, 30_000);
});

describe("a plugin's tool descriptions", () => {
  // Sent to the model with every request: bounded only by the plugin's output cap before (1 MiB by default, an
  // embedder may raise it), while MCP tools had no bound at all. Now one cap, MAX_TOOL_DESCRIPTION, for both.
  const varint = (v: number): number[] => (v < 0x80 ? [v] : [(v & 0x7f) | 0x80, ...varint(v >>> 7)]);
  const field = (n: number, body: Uint8Array | number[]) => [(n << 3) | 2, ...varint(body.length), ...body];
  const enc = (s: string) => [...new TextEncoder().encode(s)];
  const describeBytes = (description: string) =>
    new Uint8Array([...field(1, enc('p')), ...field(2, enc('1')), 3 << 3, 1, ...field(5, [...field(1, enc('Lookup')), ...field(2, enc(description))])]);

  it('over MAX_TOOL_DESCRIPTION characters refuse the plugin at load (BAD_OUTPUT), at it they load', async () => {
    const { cannedPlugin } = await import('../fixtures/canned.js');
    const { loadPlugin } = await import('../../host/plugins/load.js');
    const { MAX_TOOL_DESCRIPTION } = await import('../../host/protocol/codec.js');
    const ok = await loadPlugin({ bytes: cannedPlugin({ describe: describeBytes('d'.repeat(MAX_TOOL_DESCRIPTION)), tool: new Uint8Array() }) });
    expect(ok.tools()[0]?.description).toHaveLength(MAX_TOOL_DESCRIPTION);
    await ok.close();
    await expect(loadPlugin({ bytes: cannedPlugin({ describe: describeBytes('d'.repeat(MAX_TOOL_DESCRIPTION + 1)), tool: new Uint8Array() }) })).rejects.toMatchObject({
      code: 'BAD_OUTPUT',
      message: expect.stringMatching(/tools\[0\] \(Lookup\) description is 8193 characters; the limit is 8192/),
    });
  });
});

describe('operand charges buy about the CPU time of computation', () => {
  // Fuel is a CPU budget (the only one with timeoutMs: Infinity). At 1 fuel per 16 bytes and 64 per table
  // element, a budget spent on 8 MiB copies ran 5-20x as long as the same budget of arithmetic (Node, Deno,
  // Bun, this machine; docs/sandbox-instrumentation.md). Times are measured in test/xrt/red7.xrt.ts (printed,
  // not asserted); this holds the charges that set them.
  it('2e8 fuel (10-25 ms of arithmetic) no longer buys 800 MiB of memory.copy nor 1M table elements filled', async () => {
    const sandbox = await createSandbox(await hostile('copy-spin'), { name: 'copy-spin', limits: { timeoutMs: 120_000, fuel: 2e8 }, quarantine: { maxConsecutiveFailures: 100 } });
    try {
      for (const fn of ['copy100', 'table20']) {
        const out = await sandbox.call(fn, new Uint8Array());
        expect(!out.ok && out.failure.code, fn).toBe('FUEL_EXHAUSTED');
      }
      // Within a budget that pays for them (800 MiB at 1 per byte, 1M elements at 1024), they run.
      expect((await sandbox.call('copy100', new Uint8Array(), { limits: { fuel: 1e9 } })).ok).toBe(true);
      expect((await sandbox.call('table20', new Uint8Array(), { limits: { fuel: 1.1e9 } })).ok).toBe(true);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});

describe('loops nested past MAX_LOOP_DEPTH are refused at load', () => {
  // JavaScriptCore (Bun) compiles deeply nested loops on a background thread in time ~ depth²: 100,000 nested
  // loops (300 KB, run once) kept a core busy for over 12 s after the call returned, out of every limit's reach.
  const nested = (depth: number): Uint8Array => {
    const leb = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb(Math.floor(n / 0x80))]);
    const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
    const body = [0x00, ...Array(depth).fill([0x03, 0x40]).flat(), 0x01, ...Array(depth).fill(0x0b), 0x41, 0x00, 0x0b];
    return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...section(1, [1, 0x60, 0, 1, 0x7f]), ...section(3, [1, 0]), ...section(7, [1, 3, 0x72, 0x75, 0x6e, 0, 0]), ...section(10, [1, ...leb(body.length), ...body])]);
  };

  it('100 deep loads and runs; 101 deep is INVALID_WASM naming the cap, in both metering modes', async () => {
    const { MAX_LOOP_DEPTH } = await import('../../host/sandbox/instrument/opcodes.js');
    for (const metering of ['fast', 'exact'] as const) {
      const ok = await createSandbox(nested(MAX_LOOP_DEPTH), { name: 'loops', metering });
      expect((await ok.call('run', new Uint8Array())).ok).toBe(true);
      await ok.close();
      await expect(createSandbox(nested(MAX_LOOP_DEPTH + 1), { name: 'loops', metering })).rejects.toMatchObject({
        code: 'INVALID_WASM',
        message: expect.stringMatching(/loops nested more than 100 deep/),
      });
    }
  });
});
