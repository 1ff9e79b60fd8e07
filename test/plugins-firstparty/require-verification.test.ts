// require-verification through the host: the stop is blocked until a test command ran.
import { describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import type { HookInput, HostEvent, ModelRequest } from '../../host/index.js';
import { builtPlugin, common, postToolUse } from './wasm.js';
import { fakeBash } from '../fixtures/tools.js';

const wasm = builtPlugin('require-verification');
const stopInput = (session = 's1', active = false): HookInput => ({
  ...common({ session_id: session }),
  hook_event_name: 'Stop',
  stop_hook_active: active,
  last_assistant_message: 'All done.',
});
const bash = (command: string, session = 's1') => postToolUse('Bash', { command }, 'ok', { session_id: session });

describe('require-verification', () => {
  it('binds PostToolUse on shell tools, Stop and SessionEnd', async () => {
    const plugin = await loadPlugin({ path: wasm });
    expect(plugin.hooks().map((h) => [h.event, h.matcher?.source])).toEqual([
      ['PostToolUse', 'Bash|Shell'],
      ['Stop', undefined],
      ['SessionEnd', undefined],
    ]);
    await plugin.close();
  });

  it('blocks the stop until a test command ran in the same session', async () => {
    const plugin = await loadPlugin({ path: wasm });
    const blocked = await plugin.callHook(stopInput());
    expect(blocked).toMatchObject({ ok: true, output: { decision: 'block' } });
    expect(blocked.ok && blocked.output.reason).toMatch(/^require-verification: no-test-run: run the tests before finishing/);
    expect(await plugin.callHook(bash('ls && git status'))).toMatchObject({ output: { decision: 'continue' } });
    expect(await plugin.callHook(stopInput())).toMatchObject({ output: { decision: 'block' } });
    await plugin.callHook(bash('cd app &&  npm   test -- --run'));
    expect(await plugin.callHook(stopInput())).toMatchObject({ output: { decision: 'continue' } });
    expect(await plugin.callHook(stopInput('s2'))).toMatchObject({ output: { decision: 'block' } });
    await plugin.close();
  });

  it('allows the stop when a Stop hook already blocked once (no endless loop)', async () => {
    const plugin = await loadPlugin({ path: wasm });
    expect(await plugin.callHook(stopInput('s1', true))).toMatchObject({ output: { decision: 'continue' } });
    await plugin.close();
  });

  it.each(['npx vitest run', 'pytest -q tests/', 'go test ./...', 'cargo test --all', './node_modules/.bin/vitest run', 'python -m pytest'])(
    'counts %j as a test run',
    async (command) => {
      const plugin = await loadPlugin({ path: wasm });
      await plugin.callHook(bash(command));
      expect(await plugin.callHook(stopInput())).toMatchObject({ output: { decision: 'continue' } });
      await plugin.close();
    },
  );

  it.each(['echo npm testing', 'cat pytest.ini', 'gotest', 'npm install vitest-foo'])('does not count %j', async (command) => {
    const plugin = await loadPlugin({ path: wasm });
    await plugin.callHook(bash(command));
    expect(await plugin.callHook(stopInput())).toMatchObject({ output: { decision: 'block' } });
    await plugin.close();
  });

  it('uses test_pattern from config instead of the defaults', async () => {
    const plugin = await loadPlugin({ path: wasm }, { grants: { configKeys: ['test_pattern'] }, config: { test_pattern: 'just check|bazel test' } });
    await plugin.callHook(bash('npm test'));
    const blocked = await plugin.callHook(stopInput());
    expect(blocked.ok && blocked.output.reason).toContain('it looks for: just check, bazel test');
    await plugin.callHook(bash('bazel test //...'));
    expect(await plugin.callHook(stopInput())).toMatchObject({ output: { decision: 'continue' } });
    await plugin.close();
  });

  it('forgets a session at SessionEnd', async () => {
    const plugin = await loadPlugin({ path: wasm });
    await plugin.callHook(bash('npm test'));
    await plugin.callHook({ ...common(), hook_event_name: 'SessionEnd', reason: 'other' });
    expect(await plugin.callHook(stopInput())).toMatchObject({ output: { decision: 'block' } });
    await plugin.close();
  });

  it('makes the agent run the tests before it may finish', async () => {
    const plugin = await loadPlugin({ path: wasm });
    const commands: string[] = [];
    const host = createHost({
      plugins: [plugin],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({
        rules: [
          {
            when: (r: ModelRequest) => JSON.stringify(r.messages.at(-1)).includes('run the tests before finishing'),
            reply: { toolCalls: [{ name: 'Bash', input: { command: 'npm test' } }] },
          },
          { when: { lastToolName: 'Bash' }, reply: { text: 'Tests pass. Done.' } },
        ],
        turns: [{ text: 'I fixed the bug. Done.' }],
      }),
      tools: [
        fakeBash('12 passed', commands),
      ],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('fix the bug')) events.push(event);
    expect(commands).toEqual(['npm test']);
    const stops = events.filter((e) => e.type === 'hook.end' && e.event === 'Stop');
    expect(stops.map((e) => e.type === 'hook.end' && e.decision)).toEqual(['block', 'continue']);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { subtype: 'success' } });
    await plugin.close();
  });
});
