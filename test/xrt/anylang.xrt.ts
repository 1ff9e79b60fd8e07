// Plugins in any language on Node, Deno and Bun, against the ESM build:
// a C plugin on wasi-libc (WASI deny by default), an ordinary Extism plugin
// used as an agent tool, embedder host functions, and sql.js in the raw
// sandbox. The plugins are built from source in this repository
// (scripts/build-wasi-fixtures.mjs, scripts/build-plugins.mjs).
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, createSandbox, loadPlugin, parseConfig, scriptedModel, WasmhooksError } from '../../dist/index.js';
import type { CallOutcome, HostEvent, HostFunction } from '../../dist/index.js';
import { hostile } from './wat.js';
import { extismToolVerdicts, type ExtismToolApi } from '../plugins/extism-tool-cases.ts';

const fixture = async (path: string) => new Uint8Array(await readFile(new URL(`../fixtures/${path}`, import.meta.url)));
const guard = () => fixture('wasi/build/guard.wasm');
const vowels = () => fixture('extism-vowels/build/extism-vowels.wasm');
const text = (s: string) => new TextEncoder().encode(s);
const out = (o: CallOutcome) => (o.ok ? new TextDecoder().decode(o.output) : `${o.failure.code}: ${o.failure.message}`);
const lookup: HostFunction = { params: ['i64'], results: ['i64'], fn: (c, o) => c.store(`host says ${c.readText(o as bigint)}`) };
const ctx = { signal: new AbortController().signal, toolUseId: 't1', context: {} } as never;

export const scenarios: Record<string, () => Promise<void>> = {
  'a WASI C plugin is refused without wasi, and with wasi: true loads, decides and logs stderr as plugin.log': async () => {
    await assert.rejects(createSandbox(await guard()), (e: unknown) => e instanceof WasmhooksError && e.code === 'LOAD_FAILED' && /wasi: true/.test(e.message));
    const plugin = await loadPlugin({ bytes: await guard() }, { wasi: true });
    const ran: string[] = [];
    const host = createHost({
      plugins: [plugin],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Bash', input: { command: 'ls' } }] }, { text: 'Done.' }] }),
      tools: [{ name: 'Bash', description: 'shell', inputSchema: { type: 'object' }, kind: 'js', run: async (input: Record<string, unknown>) => (ran.push(String(input.command)), { content: 'ok', isError: false }) }],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('clean up')) events.push(event);
    await plugin.close();
    assert.deepEqual(ran, ['ls']);
    const logs = events.flatMap((e) => (e.type === 'plugin.log' ? [`${e.plugin} ${e.level} ${e.message}`] : []));
    assert.equal(logs.length, 2, JSON.stringify(logs));
    assert.match(logs[0]!, /^wasi-guard warn wasi-guard: denied a \d+-byte request$/);
  },

  'WASI: no files without a grant; a read-only preopen, args and env with one': async () => {
    const bare = await createSandbox(await guard(), { wasi: true, limits: { timeoutMs: 2_000 } });
    assert.match(out(await bare.call('read_file', text('/etc/hostname'))), /^error: /);
    assert.equal(out(await bare.call('args_env', new Uint8Array())), '');
    await bare.close();
    const root = await mkdtemp(join(tmpdir(), 'xrt-wasi-'));
    await mkdir(join(root, 'data'));
    await writeFile(join(root, 'data', 'a.txt'), 'granted');
    const granted = await createSandbox(await guard(), { wasi: { args: ['g'], env: { K: 'v' }, preopens: { '/data': join(root, 'data') } }, limits: { timeoutMs: 2_000 } });
    assert.equal(out(await granted.call('read_file', text('/data/a.txt'))), 'read 7 bytes: granted');
    assert.match(out(await granted.call('read_file', text('/data/../../etc/hostname'))), /^error: /);
    assert.match(out(await granted.call('write_file', text('/data/b.txt'))), /^error: .*read-only/i);
    assert.equal(out(await granted.call('args_env', new Uint8Array())), 'arg g\nenv K=v\n');
    await granted.close();
  },

  'WASI: a loop of WASI calls is stopped by the deadline and by fuel; exit codes are outcomes': async () => {
    const s = await createSandbox(await guard(), { wasi: true, limits: { timeoutMs: 50, fuel: 1e15 }, quarantine: { maxConsecutiveFailures: 100 } });
    const started = performance.now();
    assert.match(out(await s.call('spin_clock', new Uint8Array())), /^TIMEOUT/);
    assert.ok(performance.now() - started < 1_000);
    assert.match(out(await s.call('spin_write', new Uint8Array(), { limits: { timeoutMs: 5_000, fuel: 2_000_000 } })), /^FUEL_EXHAUSTED/);
    const napped = performance.now();
    assert.match(out(await s.call('nap', new Uint8Array(), { limits: { timeoutMs: 2_000 } })), /^TIMEOUT: .*sleep past its deadline of 2000 ms/);
    assert.ok(performance.now() - napped < 1_000, 'a sleep past the deadline stops at once');
    // Each stop discards the instance; rebuilding it is part of the next call's deadline, so give it room.
    const roomy = { limits: { timeoutMs: 2_000 } };
    assert.equal(out(await s.call('quit', text('0'), roomy)), '');
    assert.equal(out(await s.call('quit', text('7'), roomy)), 'PLUGIN_ERROR: the plugin exited with code 7');
    await s.close();
  },

  'WASI in worker isolation: the same grant and limits': async () => {
    const root = await mkdtemp(join(tmpdir(), 'xrt-wasi-worker-'));
    await writeFile(join(root, 'w.txt'), 'in the worker');
    const s = await createSandbox(await guard(), { wasi: { preopens: { '/w': root } }, isolation: 'worker', limits: { timeoutMs: 100, fuel: 1e15 } });
    assert.match(out(await s.call('entropy', new Uint8Array())), /^[0-9a-f]{32} \d+$/);
    assert.equal(out(await s.call('read_file', text('/w/w.txt'), { limits: { timeoutMs: 2_000 } })), 'read 13 bytes: in the worker');
    assert.match(out(await s.call('spin_clock', new Uint8Array())), /^TIMEOUT/);
    // After spin_clock's stop the instance is rebuilt inside this call: room for that on a loaded machine.
    assert.match(out(await s.call('read_file', text('/etc/hostname'), { limits: { timeoutMs: 2_000 } })), /^error: /);
    await s.close();
  },

  'WASI: a sleep blocks without burning CPU; a dozing plugin stops at its deadline, and on abort in a worker': async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const s = await createSandbox(await guard(), { wasi: true, isolation, limits: { timeoutMs: 2_000 }, quarantine: { maxConsecutiveFailures: 100 } });
      assert.equal(out(await s.call('sleep_ms', text('5'))), 'slept');
      // Spinning, a 50 ms sleep used 19–42 ms of CPU (medians, load 7–9); blocking in slices, about 1–2 ms. The
      // process's CPU also holds its other threads (a collector, a compiler: 84 ms once under load), so the check
      // takes the best of three rounds: a spinning sleep burns CPU in every round.
      const rounds: string[] = [];
      let kept = false;
      for (let round = 0; round < 3 && !kept; round++) {
        const before = process.cpuUsage();
        const started = performance.now();
        for (let i = 0; i < 4; i++) assert.equal(out(await s.call('sleep_ms', text('50'))), 'slept');
        const wall = performance.now() - started;
        const used = process.cpuUsage(before);
        const cpu = (used.user + used.system) / 1000;
        assert.ok(wall >= 199, `${isolation}: four 50 ms sleeps took ${wall} ms`);
        rounds.push(`${cpu.toFixed(1)} ms of CPU over ${wall.toFixed(0)} ms`);
        kept = cpu < wall / 4;
      }
      assert.ok(kept, `${isolation}: sleeping used CPU in every round: ${rounds.join('; ')}`);
      // Sleeping 10 ms at a time, forever: the sleep that would end past the deadline stops the call.
      const dozed = performance.now();
      assert.match(out(await s.call('doze', new Uint8Array(), { limits: { timeoutMs: 100 } })), /^TIMEOUT/);
      const took = performance.now() - dozed;
      assert.ok(took >= 85 && took < 1_000, `${isolation}: doze stopped after ${took} ms`);
      if (isolation === 'worker') {
        // In a worker the caller's thread is free to abort; the sleep sees the flag within a slice.
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        const calling = performance.now();
        const aborted = await s.call('doze', new Uint8Array(), { signal: controller.signal, limits: { timeoutMs: 5_000 } });
        const after = performance.now() - calling;
        // Stopped by the worker itself (not terminated after the grace), well before the deadline.
        assert.equal(out(aborted), 'ABORTED: the call was aborted');
        assert.ok(after < 1_000, `an aborted sleep returned after ${after} ms`);
      }
      await s.close();
    }
  },

  'WASI: poll_oneoff refuses 2^31, 2^32 - 1, 3,000,000 and 65 subscriptions (EINVAL), and charges each subscription': async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const s = await createSandbox(await hostile('poll-flood'), { wasi: true, isolation, limits: { timeoutMs: 10_000, fuel: 1e12 } });
      const codes = await s.call('codes', new Uint8Array(0));
      assert.deepEqual(codes.ok && [...codes.output], [28, 28, 28, 28], `${isolation}: ${out(codes)}`);
      const many = await s.call('poll64', new Uint8Array(0));
      const one = await s.call('poll1', new Uint8Array(0));
      assert.ok(many.ok && one.ok, `${out(many)} / ${out(one)}`);
      // 1,000 polls x 63 more subscriptions x 100 fuel each (the guest's own code is the same in both).
      assert.ok(many.fuelUsed - one.fuelUsed >= 1_000 * 63 * 100, `${isolation}: ${many.fuelUsed} vs ${one.fuelUsed}`);
      await s.close();
    }
  },

  'an Extism plugin without our protocol is a tool in an agent run': async () => {
    const plugin = await loadPlugin({ bytes: await vowels() }, {
      pluginName: 'vowels',
      tools: [{ name: 'count_vowels', description: 'Counts vowels', input: 'text' }],
      grants: { hostFunctions: ['lookup'] },
      hostFunctions: { lookup },
    });
    const host = createHost({
      plugins: [plugin],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'count_vowels', input: { input: 'any wasm, any language' } }] }, { text: 'Counted.' }] }),
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('count')) events.push(event);
    await plugin.close();
    const output = events.find((e) => e.type === 'tool.output');
    assert.ok(output?.type === 'tool.output' && output.content === '{"count":7,"total":22}' && !output.isError, JSON.stringify(output));
    const end = events.at(-1);
    assert.ok(end?.type === 'agent.end' && end.result.subtype === 'success');
  },

  'an Extism tool entry: wasmhooks.json and loadPlugin options give one verdict, a refusal names its field (test/plugins/extism-tool-cases.ts)': async () => {
    // dist/'s classes are other types than host/'s to the compiler (private fields), the same code at run time.
    const api = { parseConfig, loadPlugin, vowels: await vowels() } as unknown as ExtismToolApi;
    assert.deepEqual(await extismToolVerdicts(api), []);
  },

  'host functions: called when granted, refused at load when not': async () => {
    const plugin = await loadPlugin({ bytes: await vowels() }, { tools: [{ name: 'ask_host', input: 'text' }], grants: { hostFunctions: ['lookup'] }, hostFunctions: { lookup } });
    assert.deepEqual(await plugin.callTool('ask_host', { input: 'hello' }, ctx), { content: 'host says hello', isError: false });
    await plugin.close();
    await assert.rejects(
      loadPlugin({ bytes: await vowels() }, { tools: [{ name: 'count_vowels' }], hostFunctions: { lookup } }),
      (e: unknown) => e instanceof WasmhooksError && e.code === 'GRANT_DENIED' && /lookup/.test(e.message),
    );
  },

  'sql.js in the raw sandbox: a query with a deadline, a runaway recursive CTE stopped with TIMEOUT': async () => {
    // The example itself (a .ts file every runtime here runs as is).
    const example = new URL('../../examples/sqljs-sandbox/main.ts', import.meta.url).href;
    const { openSandboxedSql } = (await import(example)) as typeof import('../../examples/sqljs-sandbox/main.js');
    const sql = await openSandboxedSql({ timeoutMs: 200 });
    const ok = await sql.exec('CREATE TABLE t(x); INSERT INTO t VALUES (2),(3); SELECT sum(x) AS total FROM t;', 2_000); // the first query also warms up the engine's code
    assert.ok(ok.ok, JSON.stringify(ok));
    assert.deepEqual(ok.value, [{ columns: ['total'], values: [[5]] }]);
    const started = performance.now();
    const runaway = await sql.exec('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;');
    assert.equal(runaway.ok ? 'ok' : runaway.failure.code, 'TIMEOUT');
    assert.ok(performance.now() - started < 1_500, `stopped after ${performance.now() - started} ms`);
  },
};
