// budget through the host: IterationStart stops a prompt past max_iterations.
import { describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import type { HookInput, HostEvent } from '../../host/index.js';
import { builtPlugin, common } from './wasm.js';

const wasm = builtPlugin('budget');
const iterationStart = (iteration: number): HookInput => ({ ...common({ iteration }), hook_event_name: 'IterationStart' });
const withMax = (max: string) => ({ grants: { configKeys: ['max_iterations'] }, config: { max_iterations: max } });

describe('budget', () => {
  it('binds IterationStart, failing closed, and asks for no grants', async () => {
    const budget = await loadPlugin({ path: wasm });
    expect(budget.hooks()).toEqual([expect.objectContaining({ event: 'IterationStart', failurePolicy: 'fail-closed' })]);
    expect(budget.info.grants.configKeys).toEqual([]);
    await budget.close();
  });

  it('allows 20 model calls by default and stops the 21st', async () => {
    const budget = await loadPlugin({ path: wasm });
    expect(await budget.callHook(iterationStart(20))).toMatchObject({ ok: true, output: { decision: 'continue' } });
    const stopped = await budget.callHook(iterationStart(21));
    expect(stopped).toMatchObject({ ok: true, output: { decision: 'stop', systemMessage: 'budget: stopped after 20 model calls' } });
    expect(stopped.ok && stopped.output.reason).toMatch(/^budget: max-iterations: this prompt has used its 20 model calls \(iteration 21\)/);
    await budget.close();
  });

  it('reads max_iterations from config when granted', async () => {
    const budget = await loadPlugin({ path: wasm }, withMax(' 3 '));
    expect(await budget.callHook(iterationStart(3))).toMatchObject({ output: { decision: 'continue' } });
    expect(await budget.callHook(iterationStart(4))).toMatchObject({ output: { decision: 'stop' } });
    await budget.close();
  });

  it.each(['0', '-1', 'ten', '2.5', '99999999999'])('stops with bad-config for max_iterations %j', async (value) => {
    const budget = await loadPlugin({ path: wasm }, withMax(value));
    const result = await budget.callHook(iterationStart(1));
    expect(result).toMatchObject({ ok: true, output: { decision: 'stop' } });
    expect(result.ok && result.output.reason).toMatch(/^budget: bad-config: config max_iterations is ".*"; expected a positive integer/);
    await budget.close();
  });

  it('stops an agent that keeps calling tools after 3 model calls', async () => {
    const budget = await loadPlugin({ path: wasm }, withMax('3'));
    let calls = 0;
    const host = createHost({
      plugins: [budget],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({ rules: [{ when: () => true, reply: { toolCalls: [{ name: 'Poll', input: {} }] } }] }),
      tools: [
        {
          name: 'Poll',
          description: 'Checks whether a job is done',
          inputSchema: { type: 'object', properties: {} },
          kind: 'js',
          run: async () => {
            calls++;
            return { content: 'not yet', isError: false };
          },
        },
      ],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('wait for the job')) events.push(event);
    expect(calls).toBe(3);
    expect(events.filter((e) => e.type === 'turn.start')).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({
      type: 'agent.end',
      result: { subtype: 'success', stoppedBy: { event: 'IterationStart', decision: 'stop', reason: expect.stringMatching(/^budget: max-iterations/) } },
    });
    await budget.close();
  });
});
