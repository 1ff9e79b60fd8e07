// Red review (red4) on Node, Deno and Bun, through the built ESM: each scenario is a hole that was open
// on `main` (the vitest twin of each fails on the old code), now closed.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';
import { createHost, createSandbox, generateSigningKey, hostMemoryBound, loadPlugin, materializeConfig, parseConfig, scriptedModel, signPlugin, WasmhooksError } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { runCli } from './cli-run.ts';
import { hostile, runtime } from './wat.ts';

const hostileMcp = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));
const built = (name: string) => fileURLToPath(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url));

async function prompt(options: Record<string, unknown>, turns: unknown[]): Promise<HostEvent[]> {
  const host = createHost({ model: scriptedModel({ turns: [...turns, { text: 'done' }] } as never), permissionMode: 'bypassPermissions', ...options });
  const events: HostEvent[] = [];
  try {
    const run = (async () => {
      for await (const e of host.session().stream('go')) events.push(e);
    })();
    await Promise.race([run, new Promise((_, reject) => setTimeout(() => reject(new Error('the prompt did not end within 20 s')), 20_000))]);
  } finally {
    await host.close();
  }
  return events;
}

/** 64 memories of 1 page, each declaring the whole cap as its maximum; `run` grows each as far as it goes and touches every page. */
async function multiMemory(): Promise<Uint8Array> {
  const n = 64;
  const decls = Array.from({ length: n }, (_, i) => `(memory $m${i} 1 256)`).join('\n');
  const touch = (i: number) => `(drop (memory.grow $m${i} (i32.const 255)))
    (local.set $end (i32.mul (memory.size $m${i}) (i32.const 65536)))
    (local.set $p (i32.const 0))
    (loop $l${i} (i32.store8 $m${i} (local.get $p) (i32.const 1))
      (local.set $p (i32.add (local.get $p) (i32.const 4096)))
      (br_if $l${i} (i32.lt_u (local.get $p) (local.get $end))))`;
  const source = `(module ${decls}
    (func (export "run") (result i32) (local $p i32) (local $end i32) ${Array.from({ length: n }, (_, i) => touch(i)).join('\n')} (i32.const 0)))`;
  const wabt = await wabtInit();
  const mod = wabt.parseWat('mm.wat', source, { multi_memory: true } as Record<string, boolean>); // wabt reads it; its typings do not list it
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

/** A describe answer (PluginInfo) named `name`, declaring one tool named `tool`. */
function describeWithTool(tool: string, name = 'xrt'): Uint8Array {
  const varint = (v: number): number[] => (v < 0x80 ? [v] : [(v & 0x7f) | 0x80, ...varint(v >>> 7)]);
  const field = (n: number, body: Uint8Array) => [(n << 3) | 2, ...varint(body.length), ...body];
  const enc = (s: string) => new TextEncoder().encode(s);
  return new Uint8Array([...field(1, enc(name)), ...field(2, enc('1')), 3 << 3, 1, ...field(5, new Uint8Array(field(1, enc(tool))))]);
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a loop of alloc(0) runs out of fuel (each host block pays for the ones before it), not into a long deadline': async () => {
    const sandbox = await createSandbox(await hostile('alloc-zero-spin'), { limits: { timeoutMs: 5000, fuel: 1e9 } });
    try {
      const started = performance.now();
      const out = await sandbox.call('run', new Uint8Array());
      assert.ok(!out.ok && out.failure.code === 'FUEL_EXHAUSTED', JSON.stringify(out));
      assert.ok(out.fuelUsed <= 1e9);
      assert.ok(performance.now() - started < 2000, `took ${(performance.now() - started).toFixed(0)} ms`);
    } finally {
      await sandbox.close();
    }
  },
  'a WASM plugin sending 50,000 one-byte progress messages gets 10,000 passed on, then one note': async () => {
    const wabt = await wabtInit();
    const mod = wabt.parseWat('progress.wat', `(module
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "wasmhooks:host" "progress" (func $progress (param i64)))
      (memory (export "memory") 1)
      (func (export "run") (result i32) (local $i i32) (local $b i64)
        (local.set $b (call $alloc (i64.const 1)))
        (loop $next
          (call $progress (local.get $b))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $next (i32.lt_u (local.get $i) (i32.const 50000))))
        (i32.const 0)))`);
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    let seen = 0;
    let last = '';
    const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5000 }, host: { onProgress: (m: string) => void ((seen += 1), (last = m)) } });
    try {
      assert.ok((await sandbox.call('run', new Uint8Array())).ok);
      assert.equal(seen, 10_001);
      assert.match(last, /more progress dropped/);
    } finally {
      await sandbox.close();
    }
  },
  "two sessions calling one worker-isolated plugin's tool at once each get their own progress": async () => {
    const plugin = await loadPlugin({ path: built('calc') }, { isolation: 'worker', limits: { timeoutMs: 5000 } });
    const run = async (expression: string) => {
      const host = createHost({ model: scriptedModel({ turns: [{ toolCalls: [{ name: 'calc', input: { expression } }] }, { text: 'done' }] } as never), plugins: [plugin], permissionMode: 'bypassPermissions' });
      const events: HostEvent[] = [];
      try {
        for await (const e of host.session().stream('go')) events.push(e);
      } finally {
        await host.close();
      }
      return events.flatMap((e) => (e.type === 'tool.progress' ? [(JSON.parse(e.progress) as { tokens: number }).tokens] : []));
    };
    try {
      const [a, b] = await Promise.all([run(Array.from({ length: 200 }, () => '1').join('+')), run('2')]);
      assert.deepEqual([a, b], [[399], [1]]);
    } finally {
      await plugin.close();
    }
  },
  "the CLI shows a plugin's control characters as escapes (plugin inspect)": async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-red4-'));
    await writeFile(join(dir, 'p.wasm'), cannedPlugin({ describe: describeWithTool('Lookup', 'evil\u001b[8m'), tool: new Uint8Array() }));
    const r = await runCli(['plugin', 'inspect', 'p.wasm'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('\u001b'), JSON.stringify(r.stdout.slice(0, 80)));
    assert.match(r.stdout, /^evil\\u001b\[8m 1\n/);
  },
  "plugin inspect runs describe with WASI's base only: the config's preopen is shown, not granted": async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-inspect-'));
    await writeFile(join(dir, 'p.wasm'), await hostile('preopen-probe'));
    await mkdir(join(dir, 'keys'));
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ plugins: [{ path: 'p.wasm', wasi: { preopens: { '/keys': 'keys' } } }] }));
    const r = await runCli(['plugin', 'inspect', 'p.wasm'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^sees-nothing 1\.0\.0\n/);
    assert.match(r.stdout, /dirs \[\/keys → .*keys \(read-only\)\]/);
  },
  "describe: a tool may not take an MCP server's name (mcp__…) nor a name the model APIs refuse; the plugin's name is at most 128 characters": async () => {
    const ok = await loadPlugin({ bytes: cannedPlugin({ describe: describeWithTool('Lookup'), tool: new Uint8Array() }) });
    assert.deepEqual(ok.tools().map((t) => t.name), ['Lookup']);
    await ok.close();
    for (const name of ['mcp__fs__read_file', 'Bash ', 'B\u0430sh']) {
      const refused = await loadPlugin({ bytes: cannedPlugin({ describe: describeWithTool(name), tool: new Uint8Array() }) }).then(
        async (p) => (await p.close(), 'loaded'),
        (e: unknown) => e,
      );
      assert.ok(refused instanceof WasmhooksError && refused.code === 'BAD_OUTPUT', `${JSON.stringify(name)}: ${String(refused)}`);
    }
    // A plugin name past 128 characters (each hook call's events carry it three times).
    const long = await loadPlugin({ bytes: cannedPlugin({ describe: describeWithTool('Lookup', 'n'.repeat(129)), tool: new Uint8Array() }) }).then(
      async (p) => (await p.close(), 'loaded'),
      (e: unknown) => e,
    );
    assert.ok(long instanceof WasmhooksError && long.code === 'BAD_OUTPUT' && /limit is 128/.test(long.message), String(long));
  },
  'multi-memory: all memories together stay under maxMemoryPages (64 memories held 64x the cap)': async () => {
    const bytes = await multiMemory();
    let sandbox;
    try {
      sandbox = await createSandbox(bytes, { limits: { maxMemoryPages: 256, timeoutMs: 5000 } });
    } catch (error) {
      // Node 20 has no multi-memory: refused at validate, which is safe too.
      assert.equal(runtime, 'node', `refused on ${runtime}: ${String(error)}`);
      assert.ok(error instanceof WasmhooksError && error.code === 'INVALID_WASM', String(error));
      return;
    }
    try {
      const rss = process.memoryUsage().rss;
      const out = await sandbox.call('run', new Uint8Array());
      assert.ok(out.ok, JSON.stringify(out));
      // Every page it reached is touched: RSS shows what all its memories hold together.
      const grown = (process.memoryUsage().rss - rss) / 2 ** 20;
      assert.ok(grown < hostMemoryBound(sandbox.limits) / 2 ** 20, `RSS grew ${grown.toFixed(0)} MiB`);
      assert.ok(grown < 64, `RSS grew ${grown.toFixed(0)} MiB for a 16 MiB cap`);
    } finally {
      await sandbox.close();
    }
  },
  "an MCP tool schema's backtracking pattern runs on RE2: the model's input is refused at once": async () => {
    const started = performance.now();
    const events = await prompt({ mcpServers: { h: { command: 'node', args: [hostileMcp, 'redos'] } } }, [
      { toolCalls: [{ name: 'mcp__h__find', input: { q: `${'a'.repeat(30)}!` } }] },
    ]);
    const out = events.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && out.isError && /invalid input/.test(out.content), JSON.stringify(out));
    assert.ok(performance.now() - started < 10_000, `took ${(performance.now() - started).toFixed(0)} ms`);
  },
  "an MCP tool schema that costs zod exponential time or endless recursion is not used to check (the call runs)": async () => {
    const started = performance.now();
    const events = await prompt({ mcpServers: { e: { command: 'node', args: [hostileMcp, 'expo'] } } }, [
      { toolCalls: [{ name: 'mcp__e__chain', input: { q: 'x' } }, { name: 'mcp__e__loop', input: { q: 'x' } }] },
    ]);
    const outs = events.filter((e) => e.type === 'tool.output');
    assert.equal(outs.length, 2, JSON.stringify(outs));
    for (const out of outs) assert.ok(out.type === 'tool.output' && !out.isError && /found/.test(out.content), JSON.stringify(out));
    assert.ok(performance.now() - started < 10_000, `took ${(performance.now() - started).toFixed(0)} ms`);
  },
  'an MCP server paging tools/list forever fails its start (MCP_START_FAILED); the prompt ends': async () => {
    const events = await prompt({ mcpServers: { p: { command: 'node', args: [hostileMcp, 'pages'], startTimeoutMs: 2000 } } }, []);
    const error = events.find((e) => e.type === 'mcp.server.error');
    assert.ok(error && error.type === 'mcp.server.error' && error.code === 'MCP_START_FAILED' && /tools\/list/.test(error.message), JSON.stringify(error));
    assert.ok(events.some((e) => e.type === 'agent.end'));
  },
  'an MCP server listing 50,000 tools gets 1,000 registered (and a note); its progress flood is cut at 1 MiB per call': async () => {
    const host = createHost({ model: scriptedModel({ turns: [{ text: 'done' }] }), mcpServers: { f: { command: 'node', args: [hostileMcp, 'flood'], env: { NO_FLOOD: '1' } } } });
    try {
      await host.ready();
      assert.equal(host.tools.list().filter((t) => t.name.startsWith('mcp__f__')).length, 1000);
    } finally {
      await host.close();
    }
    const events = await prompt({ mcpServers: { c: { command: 'node', args: [hostileMcp, 'progress'] } } }, [{ toolCalls: [{ name: 'mcp__c__chatty', input: {} }] }]);
    const chars = events.reduce((n, e) => n + (e.type === 'tool.progress' ? e.progress.length : 0), 0);
    assert.ok(chars <= (1 << 20) + 10_100, `${chars} characters of progress`);
    assert.ok(events.some((e) => e.type === 'tool.output' && !e.isError));
  },
  'a remote plugin is refused at 64 MiB while it downloads (a chunked body that then stalls)': async () => {
    const chunk = new Uint8Array(1 << 20);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      let sent = 0;
      const more = (): void => {
        while (sent < 65 << 20) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p.wasm`;
      const error = await Promise.race([
        loadPlugin({ url, sha256: '0'.repeat(64) }).then(() => undefined, (e: unknown) => e),
        new Promise((resolve) => setTimeout(() => resolve('no answer within 15 s'), 15_000)),
      ]);
      assert.ok(error instanceof WasmhooksError && error.code === 'LOAD_FAILED' && /byte limit/.test(error.message), String(error));
    } finally {
      server.closeAllConnections?.();
      server.close();
    }
  },
  'a remote plugin whose body stops mid-way fails at its timeoutMs (LOAD_FAILED), not never': async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.write(new Uint8Array(1024));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p.wasm`;
      const started = performance.now();
      const error = await Promise.race([
        loadPlugin({ url, sha256: '0'.repeat(64), timeoutMs: 300 }).then(() => undefined, (e: unknown) => e),
        new Promise((resolve) => setTimeout(() => resolve('no answer within 10 s'), 10_000)),
      ]);
      assert.ok(error instanceof WasmhooksError && error.code === 'LOAD_FAILED' && /no complete answer within 300 ms$/.test(error.message), String(error));
      assert.ok(performance.now() - started < 5_000, `${performance.now() - started} ms`);
    } finally {
      server.closeAllConnections?.();
      server.close();
    }
  },
  'requireSignature loads the bytes it verified: a file that changes between verify and load is INTEGRITY': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-red4-'));
    const signed = new Uint8Array(await readFile(built('secret-redactor')));
    const acme = await generateSigningKey('acme');
    await writeFile(join(dir, 'signed.wasm'), signed);
    await writeFile(join(dir, 'evil.wasm'), await readFile(built('guard-shell')));
    await writeFile(join(dir, 'g.wasm.sig'), JSON.stringify(await signPlugin(signed, acme.privateKeyFile)));
    // A FIFO answers the two reads (verify, then load) with different bytes, as a file swapped between them would.
    execFileSync('mkfifo', [join(dir, 'g.wasm')]);
    const writer = spawn('sh', ['-c', 'cat signed.wasm > g.wasm; sleep 1; cat evil.wasm > g.wasm'], { cwd: dir, stdio: 'ignore' });
    try {
      const config = parseConfig(
        { requireSignature: true, trustedKeys: { acme: { publicKey: acme.publicKey } }, plugins: [{ path: 'g.wasm' }] },
        { file: join(dir, 'wasmhooks.json'), dir },
      );
      const loaded = await materializeConfig(config).then(async (parts) => {
        const names = parts.plugins.map((p) => p.name);
        await parts.close();
        return names;
      }, (e: unknown) => e);
      assert.ok(loaded instanceof WasmhooksError && loaded.code === 'INTEGRITY', `loaded: ${String(loaded)}`);
    } finally {
      writer.kill();
    }
  },
};
