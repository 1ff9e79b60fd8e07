// calc through the host: a WASM tool with safe arithmetic and clear errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, WasmPlugin } from '../../host/index.js';
import type { HostEvent, ModelRequest, ToolHandler } from '../../host/index.js';
import { builtPlugin, common } from './wasm.js';

const wasm = builtPlugin('calc');

describe('calc', () => {
  let plugin: WasmPlugin;
  let tool: ToolHandler;
  let progress: string[];
  const calc = (expression: unknown) => {
    progress = [];
    return tool.run({ expression }, {
      signal: new AbortController().signal,
      toolUseId: 'toolu_1',
      context: common(),
      onProgress: (p) => progress.push(p),
    });
  };

  beforeAll(async () => {
    plugin = await loadPlugin({ path: wasm });
    tool = plugin.tools()[0]!;
  });
  afterAll(() => plugin.close());

  it('offers one tool, calc, with an input schema that requires expression', () => {
    expect(plugin.tools()).toHaveLength(1);
    expect(plugin.hooks()).toEqual([]);
    expect(tool).toMatchObject({ name: 'calc', kind: 'wasm', plugin: 'calc', inputSchema: { type: 'object', required: ['expression'] } });
  });

  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['2 ^ 3 ^ 2', '512'],
    ['-2 ^ 2', '-4'],
    ['2 ^ -1', '0.5'],
    ['--3', '3'],
    ['7 % 3 + 10 / 4', '3.5'],
    ['0.1 + 0.2', '0.3'],
    ['1 / 3', '0.333333333333333'],
    ['-2 / 3', '-0.666666666666667'],
    ['1e-8 * 3', '0.00000003'],
    ['123456.789 * 1000', '123456789'],
    ['99999.99999999999', '100000'],
    ['.5 * 4', '2'],
    ['1.5e3 - 1E2', '1400'],
    ['-(3 - 10) * 2', '14'],
    ['  42  ', '42'],
    ['2 ^ 60', '1152921504606846976'],
  ])('%s = %s', async (expression, expected) => {
    expect(await calc(expression)).toEqual({ content: expected, isError: false });
  });

  it.each([
    ['1 / 0', 'calc: division by zero at position 3 in: 1 / 0'],
    ['5 % (2 - 2)', 'calc: modulo by zero at position 3'],
    ['1 + ', 'calc: syntax error: expected a number or ( but the expression ended at position 5'],
    ['2 * (3 + 4', 'calc: missing ) for the ( at position 5, at position 11'],
    ['2 + 3)', 'calc: syntax error: unmatched ) at position 6'],
    ['2 + abc', 'calc: syntax error: unexpected "a" at position 5'],
    ['1e', 'calc: syntax error: exponent without digits at position 2'],
    ['.', 'calc: syntax error: a lone "." is not a number at position 1'],
    ['', 'calc: syntax error: the expression is empty'],
    ['10 ^ 400', 'calc: the result is not a finite number (overflow to +Infinity)'],
    ['('.repeat(500) + '1' + ')'.repeat(500), 'calc: expression nested too deeply'],
  ])('%j is an error result', async (expression, message) => {
    const result = await calc(expression);
    expect(result.isError).toBe(true);
    expect(result.content).toContain(message);
  });

  it('reports progress once per call', async () => {
    await calc('1 + 2');
    expect(progress).toEqual(['{"stage":"evaluated","tokens":3}']);
  });

  it("the result reaches the model as the tool result, and errors as error results", async () => {
    const seen: ModelRequest[] = [];
    const host = createHost({
      plugins: [plugin],
      model: scriptedModel({
        turns: [
          { toolCalls: [{ name: 'calc', input: { expression: '(17 + 25) * 3' } }, { name: 'calc', input: { expression: '1/0' } }] },
          (request) => {
            seen.push(request);
            return { text: 'It is 126.' };
          },
        ],
      }),
    });
    const events: HostEvent[] = [];
    for await (const event of host.session({ permissionMode: 'bypassPermissions' }).stream('what is (17+25)*3?')) events.push(event);
    const results = seen[0]!.messages.filter((m) => m.role === 'tool');
    expect(results).toEqual([
      expect.objectContaining({ toolName: 'calc', content: '126', isError: false }),
      expect.objectContaining({ toolName: 'calc', content: expect.stringContaining('division by zero'), isError: true }),
    ]);
    expect(events.filter((e) => e.type === 'tool.progress')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', result: { subtype: 'success' } });
  });
});
