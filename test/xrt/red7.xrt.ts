// Red review (red7) on Node, Deno and Bun, through the built ESM: each scenario is a hole that was open on
// `main` (its vitest twin in test/sandbox/red7.test.ts or test/mcp/hostile.test.ts fails on the old code),
// now closed; the stack-overflow one checks a class that held (engines do not let wasm catch it).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createHost, createSandbox, instrument, loadPlugin, scriptedModel, WasmhooksError } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { hostileHttpMcp } from '../fixtures/mcp/hostile-http.ts';
import { hostile, paddedConsts, runtime, str } from './wat.ts';

const hostileMcp = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));
const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');
/** The cap on one tool's description (MAX_TOOL_DESCRIPTION, host/protocol/codec.ts). */
const MAX_TOOL_DESCRIPTION = 8192;

async function prompt(options: Record<string, unknown>, turns: unknown[], model = scriptedModel({ turns: [...turns, { text: 'done' }] } as never)): Promise<HostEvent[]> {
  const host = createHost({ model, permissionMode: 'bypassPermissions', ...options });
  const events: HostEvent[] = [];
  try {
    const run = (async () => {
      for await (const e of host.session().stream('go')) events.push(e);
    })();
    await Promise.race([run, new Promise((_, reject) => setTimeout(() => reject(new Error('the prompt did not end within 40 s')), 40_000))]);
  } finally {
    await host.close();
  }
  return events;
}

/** PluginInfo bytes: plugin "p", protocol 1, one tool "Lookup" with `description`. */
function describeWithDescription(description: string): Uint8Array {
  const varint = (v: number): number[] => (v < 0x80 ? [v] : [(v & 0x7f) | 0x80, ...varint(v >>> 7)]);
  const field = (n: number, body: number[]) => [(n << 3) | 2, ...varint(body.length), ...body];
  const enc = (s: string) => [...new TextEncoder().encode(s)];
  return new Uint8Array([...field(1, enc('p')), ...field(2, enc('1')), 3 << 3, 1, ...field(5, [...field(1, enc('Lookup')), ...field(2, enc(description))])]);
}

const leb = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb(Math.floor(n / 0x80))]);
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
/** `parts` end to end: building the modules of a million bytes below by spreading arrays took most of their seconds. */
function concat(parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}
/** `section`, for a body given in parts. */
const sectionOf = (id: number, body: ArrayLike<number>[]): Uint8Array => {
  const bytes = concat(body);
  return concat([[id], leb(bytes.length), bytes]);
};
const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

export const scenarios: Record<string, () => Promise<void>> = {
  'loops nested past 100 are refused at load (INVALID_WASM); 1,000 functions of 100 leave little background compile behind': async () => {
    const nested = (depth: number): Uint8Array => {
      const body = [0x00, ...Array(depth).fill([0x03, 0x40]).flat(), 0x01, ...Array(depth).fill(0x0b), 0x41, 0x00, 0x0b];
      return new Uint8Array([...HEADER, ...section(1, [1, 0x60, 0, 1, 0x7f]), ...section(3, [1, 0]), ...section(7, [1, 3, 0x72, 0x75, 0x6e, 0, 0]), ...section(10, [1, ...leb(body.length), ...body])]);
    };
    const refused = await createSandbox(nested(101)).then(
      async (s) => (await s.close(), 'loaded'),
      (e: unknown) => e,
    );
    assert.ok(refused instanceof WasmhooksError && refused.code === 'INVALID_WASM' && /loops nested more than 100 deep/.test(refused.message), String(refused));
    // 1,000 functions of 100 nested loops, all called once by `run` (function 1,000).
    const one = [0x00, ...Array(100).fill([0x03, 0x40]).flat(), 0x01, ...Array(100).fill(0x0b), 0x41, 0x00, 0x0b];
    const run = [0x00, ...Array.from({ length: 1_000 }, (_, i) => [0x10, ...leb(i), 0x1a]).flat(), 0x41, 0x00, 0x0b];
    const bodies = [...Array(1_000).fill([...leb(one.length), ...one]).flat(), ...leb(run.length), ...run];
    const wasm = new Uint8Array([...HEADER, ...section(1, [1, 0x60, 0, 1, 0x7f]), ...section(3, [...leb(1_001), ...Array(1_001).fill(0)]), ...section(7, [1, 3, 0x72, 0x75, 0x6e, 0, ...leb(1_000)]), ...section(10, [...leb(1_001), ...bodies])]);
    const sandbox = await createSandbox(wasm);
    try {
      assert.ok((await sandbox.call('run', new Uint8Array())).ok);
      // JavaScriptCore compiles them in the background after the call (one function of 100,000 kept a core busy for over 12 s).
      const before = process.cpuUsage();
      await new Promise((r) => setTimeout(r, 1_000));
      const used = process.cpuUsage(before);
      console.log(`    [${runtime}] the second after a call of 1,000 functions of 100 nested loops: ${((used.user + used.system) / 1000).toFixed(0)} ms of CPU`);
    } finally {
      await sandbox.close();
    }
  },
  'the instrumenter gives every table.set check its 1024 fuel and the type section its count, however its buffer grows': async () => {
    // Each module larger than the last, so the output buffer grows in every call (at shifting offsets).
    for (let n = 3_000, round = 0; round < 5; round++, n = Math.ceil(n * 2.3)) {
      const unit = [0x41, 0x00, 0xd0, 0x70, 0x26, 0x00]; // i32.const 0; ref.null func; table.set 0
      const code = concat([[0x00], ...Array.from({ length: n }, () => unit), [0x0b]]);
      const wasm = concat([HEADER, section(1, [1, 0x60, 0, 0]), section(3, [1, 0]), section(4, [1, 0x70, 0x00, 1]), sectionOf(10, [[1], leb(code.length), code])]);
      const { bytes } = instrument(wasm, { maxMemoryPages: 1 });
      assert.ok(WebAssembly.validate(bytes));
      assert.equal(paddedConsts(bytes, 1024), n, `${n} table.set`);
    }
    for (let n = 2_000, round = 0; round < 5; round++, n = Math.ceil(n * 2.3)) {
      const types = Array.from({ length: n }, (_, i) => [0x60, 20 + (i % 10), ...Array(20 + (i % 10)).fill(0x7f), 1, [0x7f, 0x7e, 0x7d, 0x7c][Math.floor(i / 10) % 4]!]);
      const wasm = concat([HEADER, sectionOf(1, [leb(n + 1), ...types, [0x60, 0, 0]]), section(3, [1, ...leb(n)]), section(10, [1, 2, 0x00, 0x0b])]);
      assert.ok(WebAssembly.validate(instrument(wasm, { maxMemoryPages: 1 }).bytes), `${n} types`);
    }
  },

  'a loop calling a host function that stores an empty value runs out of fuel, not into a long deadline': async () => {
    const hostFunctions = { stash: { params: [], results: ['i64' as const], fn: (ctx: { store(v: string): bigint }) => ctx.store('') } };
    const sandbox = await createSandbox(await hostile('host-store-spin'), { hostFunctions, limits: { timeoutMs: 5000, fuel: 1e9 } });
    try {
      const started = performance.now();
      const out = await sandbox.call('run', new Uint8Array());
      assert.ok(!out.ok && out.failure.code === 'FUEL_EXHAUSTED', JSON.stringify(out));
      assert.ok(out.fuelUsed <= 1e9);
      assert.ok(performance.now() - started < 2500, `took ${(performance.now() - started).toFixed(0)} ms`);
    } finally {
      await sandbox.close();
    }
  },

  "a worker-isolated plugin's hook progress reaches nobody, not a tool call queued behind it": async () => {
    const plugin = await loadPlugin({ bytes: await hostile('progress-in-hook') }, { isolation: 'worker', limits: { timeoutMs: 10_000, fuel: 1e10 } });
    try {
      const seen: string[] = [];
      const hook = plugin.callHook({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' } as never);
      const context = { session_id: 's', cwd: '/', hook_event_name: 'PreToolUse' };
      const tool = plugin.callTool('Work', {}, { signal: new AbortController().signal, onProgress: (m: string) => void seen.push(m), toolUseId: 'u', context } as never);
      await Promise.all([hook, tool]);
      assert.deepEqual(seen, ['from-tool']);
    } finally {
      await plugin.close();
    }
  },

  'an MCP server over HTTP answering with an endless JSON, SSE or error body fails the call at 10 MiB, at once': async () => {
    for (const mode of ['json', 'sse', 'error'] as const) {
      const server = await hostileHttpMcp(mode);
      try {
        const started = performance.now();
        const events = await prompt({ mcpServers: { e: { url: server.url, timeoutMs: 30_000 } } }, [{ toolCalls: [{ name: 'mcp__e__endless', input: {} }] }]);
        const out = events.find((e) => e.type === 'tool.output');
        assert.ok(out && out.type === 'tool.output' && out.isError, `${mode}: ${JSON.stringify(out)?.slice(0, 200)}`);
        assert.ok(performance.now() - started < 10_000, `${mode}: took ${(performance.now() - started).toFixed(0)} ms`);
        assert.ok(server.sent() < 64 * 1024 * 1024, `${mode}: the server wrote ${server.sent()} bytes before the host hung up`);
      } finally {
        await server.close();
      }
    }
  },

  "tool descriptions: a plugin's over 8192 characters is refused at load, an MCP server's is cut there with one event": async () => {
    const ok = await loadPlugin({ bytes: cannedPlugin({ describe: describeWithDescription('d'.repeat(MAX_TOOL_DESCRIPTION)), tool: new Uint8Array() }) });
    assert.equal(ok.tools()[0]?.description.length, MAX_TOOL_DESCRIPTION);
    await ok.close();
    const refused = await loadPlugin({ bytes: cannedPlugin({ describe: describeWithDescription('d'.repeat(MAX_TOOL_DESCRIPTION + 1)), tool: new Uint8Array() }) }).then(
      async (p) => (await p.close(), 'loaded'),
      (e: unknown) => e,
    );
    assert.ok(refused instanceof WasmhooksError && refused.code === 'BAD_OUTPUT' && /description is 8193 characters/.test(refused.message), String(refused));

    const model = scriptedModel({ turns: [{ text: 'done' }] } as never) as ReturnType<typeof scriptedModel> & { requests: { tools?: { name: string; description: string }[] }[] };
    const events = await prompt({ mcpServers: { l: { command: 'node', args: [hostileMcp, 'longdesc'] } } }, [], model);
    const cut = events.filter((e) => e.type === 'mcp.server.error' && e.code === 'MCP_PROTOCOL');
    assert.equal(cut.length, 1, JSON.stringify(cut));
    const told = (model.requests[0]?.tools ?? []).filter((t) => t.name.startsWith('mcp__l__'));
    assert.equal(told.length, 60);
    assert.ok(told.every((t) => t.description.length <= MAX_TOOL_DESCRIPTION + 40), `${Math.max(...told.map((t) => t.description.length))} characters`);
  },

  'a stack overflow inside host code, or under a wasm catch_all, is STACK_OVERFLOW in-thread and in a worker; the next call runs': async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const sandbox = await createSandbox(await hostile('recursion-in-host'), { allowExceptions: true, isolation, limits: { timeoutMs: 10_000 }, quarantine: { maxConsecutiveFailures: 100 } });
      try {
        for (const fn of ['run', 'caught', 'caught', 'run']) {
          const out = await sandbox.call(fn, new Uint8Array());
          assert.ok(!out.ok && out.failure.code === 'STACK_OVERFLOW', `${isolation} ${fn}: ${out.ok ? `ok ${str(out.output)}` : out.failure.code}`);
          const next = await sandbox.call('echo', new Uint8Array());
          assert.equal(next.ok && str(next.output), 'ok');
        }
      } finally {
        await sandbox.close();
      }
    }
  },

  '2e8 fuel no longer buys 800 MiB of copies or 1M table elements; the CPU a budget buys, printed': async () => {
    const sandbox = await createSandbox(await hostile('copy-spin'), { limits: { timeoutMs: 120_000, fuel: 2e8 }, quarantine: { maxConsecutiveFailures: 100 } });
    try {
      for (const fn of ['copy100', 'table20']) {
        const out = await sandbox.call(fn, new Uint8Array());
        assert.ok(!out.ok && out.failure.code === 'FUEL_EXHAUSTED', `${fn}: ${JSON.stringify(out)}`);
      }
      assert.ok((await sandbox.call('copy100', new Uint8Array(), { limits: { fuel: 1e9 } })).ok);
      assert.ok((await sandbox.call('table20', new Uint8Array(), { limits: { fuel: 1.1e9 } })).ok);
      // What a budget buys of each kind of work (timing is measured, not asserted: docs/sandbox-instrumentation.md).
      const best = async (fn: string) => {
        let ms = Infinity;
        for (let i = 0; i < 3; i++) {
          const started = performance.now();
          const out = await sandbox.call(fn, new Uint8Array());
          ms = Math.min(ms, performance.now() - started);
          assert.ok(!out.ok && out.failure.code === 'FUEL_EXHAUSTED', `${fn}: ${JSON.stringify(out)}`);
        }
        return ms;
      };
      await best('compute');
      const compute = await best('compute');
      const copy = await best('copy');
      const table = await best('table');
      console.log(`    [${runtime}] 2e8 fuel: compute ${compute.toFixed(0)} ms, 8 MiB copies ${copy.toFixed(0)} ms (${(copy / compute).toFixed(1)}x), table fills ${table.toFixed(0)} ms (${(table / compute).toFixed(1)}x)`);
    } finally {
      await sandbox.close();
    }
  },
};
