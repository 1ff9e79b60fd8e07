// The first-party plugins on every runtime, through the built ESM: one
// scenario per plugin (path-guard, secret-redactor, budget,
// require-verification, calc), each loaded from its built .wasm.
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createHost, instrument, loadPlugin, scriptedModel } from '../../dist/index.js';
import type { HookCommon, HookInput, HostEvent, InstrumentOptions, PluginOptions } from '../../dist/index.js';
import { fakeBash } from './tools.ts';

const bytesOf = async (name: string) =>
  new Uint8Array(await readFile(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url)));
const load = async (name: string, options?: PluginOptions) => loadPlugin({ bytes: await bytesOf(name) }, options);

const common: HookCommon = { session_id: 'xrt', cwd: '/work/app', turn: 1, iteration: 1, permission_mode: 'default' };

async function collect(stream: AsyncIterable<HostEvent>): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'path-guard denies a .. escape and an outside path, lets a workspace path through': async () => {
    const guard = await load('path-guard', { grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app' } });
    try {
      const read = (file_path: string): HookInput => ({
        ...common,
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path },
        tool_use_id: 't1',
      });
      const escape = await guard.callHook(read('src/../../../etc/passwd'));
      assert.ok(escape.ok && escape.output.decision === 'deny', JSON.stringify(escape));
      assert.match(escape.output.reason ?? '', /^path-guard: dotdot-escape: .*resolves to \/etc\/passwd/);
      const outside = await guard.callHook(read('/work/application/x'));
      assert.ok(outside.ok && outside.output.decision === 'deny', JSON.stringify(outside));
      const inside = await guard.callHook(read('./src/index.ts'));
      assert.ok(inside.ok && inside.output.decision === 'continue', JSON.stringify(inside));
    } finally {
      await guard.close();
    }
  },

  'secret-redactor: the model sees [REDACTED:…] instead of the key': async () => {
    const redactor = await load('secret-redactor');
    try {
      const key = `ghp_${'aB1cD2eF3g'.repeat(4).slice(0, 36)}`;
      const seen: string[] = [];
      const host = createHost({
        plugins: [redactor],
        permissionMode: 'bypassPermissions',
        tools: [fakeBash(() => `token=${key}\nDB_PASSWORD=hunter22`)],
        model: scriptedModel({
          turns: [
            { toolCalls: [{ name: 'Bash', input: { command: 'cat .env' } }] },
            (request) => {
              seen.push(JSON.stringify(request.messages));
              return { text: 'Read it.' };
            },
          ],
        }),
      });
      const events = await collect(host.session().stream('show .env'));
      assert.equal(seen.length, 1);
      assert.ok(seen[0]!.includes('token=[REDACTED:github-token]\\nDB_PASSWORD=[REDACTED:password]'), seen[0]);
      assert.ok(!seen[0]!.includes(key));
      assert.equal(events.at(-1)?.type, 'agent.end');
    } finally {
      await redactor.close();
    }
  },

  'budget stops a looping agent after max_iterations model calls': async () => {
    const budget = await load('budget', { grants: { configKeys: ['max_iterations'] }, config: { max_iterations: '2' } });
    try {
      const ran: string[] = [];
      const host = createHost({
        plugins: [budget],
        permissionMode: 'bypassPermissions',
        tools: [fakeBash(() => 'not yet', ran)],
        model: scriptedModel({ rules: [{ when: () => true, reply: { toolCalls: [{ name: 'Bash', input: { command: 'check' } }] } }] }),
      });
      const events = await collect(host.session().stream('wait'));
      assert.equal(ran.length, 2);
      const end = events.at(-1);
      assert.ok(end?.type === 'agent.end', JSON.stringify(end));
      assert.equal(end.result.stoppedBy?.event, 'IterationStart');
      assert.match(end.result.stoppedBy?.reason ?? '', /^budget: max-iterations/);
    } finally {
      await budget.close();
    }
  },

  'require-verification blocks the first stop; the agent runs the tests and then stops': async () => {
    const verify = await load('require-verification');
    try {
      const ran: string[] = [];
      const host = createHost({
        plugins: [verify],
        permissionMode: 'bypassPermissions',
        tools: [fakeBash(() => '3 passed', ran)],
        model: scriptedModel({
          rules: [
            {
              when: (r) => JSON.stringify(r.messages.at(-1)).includes('run the tests before finishing'),
              reply: { toolCalls: [{ name: 'Bash', input: { command: 'go test ./...' } }] },
            },
            { when: { lastToolName: 'Bash' }, reply: { text: 'Tests pass.' } },
          ],
          turns: [{ text: 'Done.' }],
        }),
      });
      const events = await collect(host.session().stream('fix it'));
      assert.deepEqual(ran, ['go test ./...']);
      const stops = events.flatMap((e) => (e.type === 'hook.end' && e.event === 'Stop' ? [e.decision] : []));
      assert.deepEqual(stops, ['block', 'continue']);
    } finally {
      await verify.close();
    }
  },

  'calc: the result and a division-by-zero error reach the model as tool results': async () => {
    const calc = await load('calc');
    try {
      const results: { content: string; isError: boolean }[] = [];
      const host = createHost({
        plugins: [calc],
        permissionMode: 'bypassPermissions',
        model: scriptedModel({
          turns: [
            { toolCalls: [{ name: 'calc', input: { expression: '2 ^ 10 - 0.5' } }, { name: 'calc', input: { expression: '4 / (2 - 2)' } }] },
            (request) => {
              for (const m of request.messages) if (m.role === 'tool') results.push({ content: m.content, isError: m.isError });
              return { text: 'ok' };
            },
          ],
        }),
      });
      const events = await collect(host.session().stream('compute'));
      assert.deepEqual(results[0], { content: '1023.5', isError: false });
      assert.equal(results[1]?.isError, true);
      assert.match(results[1]?.content ?? '', /division by zero at position 3/);
      assert.equal(events.filter((e) => e.type === 'tool.progress').length, 2);
    } finally {
      await calc.close();
    }
  },

  'the shipped pre-instrumented plugins are what this runtime\'s instrumenter makes of them; loaded by name, guard-shell decides': async () => {
    // plugins/prebuilt.json is written under Node at build time and used on every runtime (host/sandbox/compiled.ts).
    const dir = new URL('../../plugins/', import.meta.url);
    const shipped = JSON.parse(await readFile(new URL('prebuilt.json', dir), 'utf8')) as Record<string, { file: string }>;
    const pins = JSON.parse(await readFile(new URL('first-party.json', dir), 'utf8')) as Record<string, { file: string; sha256: string }>;
    let checked = 0;
    for (const [key, entry] of Object.entries(shipped)) {
      const [digest, options] = [key.slice(0, key.indexOf(':')), JSON.parse(key.slice(key.indexOf(':') + 1)) as [string, unknown][]];
      // The plugins whose bytes reach the instrumenter unchanged (no WASI or denied imports to reroute).
      const plugin = Object.values(pins).find((p) => p.sha256 === digest);
      if (!plugin) continue;
      const bytes = new Uint8Array(await readFile(new URL(plugin.file, dir)));
      const ours = instrument(bytes, Object.fromEntries(options) as unknown as InstrumentOptions).bytes;
      assert.deepEqual(ours, new Uint8Array(await readFile(new URL(entry.file, dir))), `${entry.file} differs from this runtime's instrumenter`);
      checked++;
    }
    assert.ok(checked >= 3, `checked ${checked} shipped files`);
    const guard = await loadPlugin({ name: 'guard-shell' });
    try {
      const decide = async (command: string) => {
        const r = await guard.callHook({ ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });
        assert.ok(r.ok, JSON.stringify(r));
        return r.output.decision;
      };
      assert.equal(await decide('ls -la'), 'allow');
      assert.equal(await decide('rm -rf /'), 'deny');
    } finally {
      await guard.close();
    }
  },

  'the build reads its own plugins/ only, never a plugins/first-party.json further up (node_modules/plugins/)': async () => {
    // The package installed without its plugins/: its build once went on to node_modules/plugins/, which any
    // package named "plugins" could ship, naming any bytes guard-shell (and trusting their "instrumented" form).
    const root = new URL(`../../node_modules/.cache/wasmhooks-xrt-own/${Math.random().toString(36).slice(2)}/`, import.meta.url);
    const foreign = new URL('node_modules/plugins/', root);
    try {
      await cp(fileURLToPath(new URL('../../dist/', import.meta.url)), fileURLToPath(new URL('node_modules/wasmhooks/dist/', root)), { recursive: true });
      await mkdir(new URL('guard-shell/build/', foreign), { recursive: true });
      const bytes = await bytesOf('guard-shell');
      await writeFile(new URL('guard-shell/build/guard-shell.wasm', foreign), bytes);
      const sha256 = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
      await writeFile(new URL('first-party.json', foreign), JSON.stringify({ 'guard-shell': { file: 'guard-shell/build/guard-shell.wasm', sha256, bytes: bytes.length } }));
      const installed = (await import(new URL('node_modules/wasmhooks/dist/index.js', root).href)) as { loadPlugin: typeof loadPlugin };
      await assert.rejects(installed.loadPlugin({ name: 'guard-shell' }), (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'LOAD_FAILED');
        assert.match(error.message ?? '', /node_modules\/wasmhooks\/plugins\/first-party\.json/);
        assert.doesNotMatch(error.message ?? '', /node_modules\/plugins\//);
        return true;
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  },
};
