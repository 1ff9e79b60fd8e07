// Providers and tools that break their contracts cannot hang or crash the loop.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Model, ModelEvent } from '../../host/models/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { collect, endResult, host, ofType } from './helpers.js';

const modelOf = (stream: Model['stream']): Model => ({ id: 'test:broken', stream });

describe('a broken model', () => {
  it('a stream that ends without message.end is an error result (BAD_STREAM)', async () => {
    const model = modelOf(async function* () {
      yield { type: 'message.start', model: 'x' } as ModelEvent;
      yield { type: 'text.delta', text: 'half' } as ModelEvent;
    });
    const events = await collect(host({ model }).session(), 'go');
    expect(endResult(events)).toMatchObject({ subtype: 'error_during_execution', error: { code: 'BAD_STREAM' } });
  });

  it('a stream that throws, or a stream() that throws synchronously, is an error result', async () => {
    const throwing = modelOf(async function* () {
      yield { type: 'message.start', model: 'x' } as ModelEvent;
      throw new Error('socket closed');
    });
    expect((await host({ model: throwing }).session().prompt('go')).error?.message).toMatch(/socket closed/);
    const sync = modelOf(() => {
      throw new Error('no key');
    });
    expect((await host({ model: sync }).session().prompt('go')).error?.message).toMatch(/no key/);
  });

  it('a stream that hangs and ignores the abort still ends the prompt promptly on abort', async () => {
    const model = modelOf(() => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<ModelEvent>>(() => {}) }),
    }));
    const session = host({ model }).session();
    const pending = session.prompt('go');
    setTimeout(() => session.abort(), 10);
    const t0 = performance.now();
    expect((await pending).subtype).toBe('aborted');
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(session.state).toBe('idle');
  });
});

describe('a broken tool', () => {
  it('a tool that ignores the abort does not hold the loop; its late answer is not used', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const model = scriptedModel([{ toolCalls: [{ name: 'Stuck', input: {} }] }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    h.tools.add(tool('Stuck', 'never returns', z.object({}), () => (started(), new Promise<string>(() => {}))));
    const session = h.session();
    const pending = collect(session, 'go');
    await running;
    session.abort();
    const events = await pending;
    expect(endResult(events).subtype).toBe('aborted');
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ isError: true, content: 'Stuck was aborted' });
  });

  it('a handler that returns garbage instead of { content } is an error result', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Bad', input: {} }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    h.tools.add({ name: 'Bad', description: 'b', kind: 'wasm', inputSchema: { type: 'object' }, run: async () => 42 as never });
    const events = await collect(h.session(), 'go');
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ isError: true, content: 'tool Bad returned no text content' });
  });

  it('a WASM-style tool is validated against its JSON schema', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Calc', input: { a: 'one' } }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    let ran = false;
    h.tools.add({
      name: 'Calc', description: 'c', kind: 'wasm',
      inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
      run: async () => ((ran = true), { content: 'x', isError: false }),
    });
    const events = await collect(h.session(), 'go');
    expect(ran).toBe(false);
    expect(ofType(events, 'tool.output')[0]?.content).toMatch(/invalid input for Calc/);
  });
});
