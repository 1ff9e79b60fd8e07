// One rule for every tool's name (host/tools/name.ts): the model APIs' ASCII rule, whoever defines the tool, so
// that no tool can pass for another by the look of its name: `Bаsh` below has a Cyrillic а, and a permission
// question naming it would read as Bash to the operator.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pluginInfoOf, PROTOCOL_VERSION } from '../../host/protocol/codec.js';
import { extismToolSchema } from '../../host/plugins/extism-tools.js';
import { tool } from '../../host/tools/define.js';

const LOOKALIKES = ['Bаsh', 'Ｂash', 'Bash\u200b', 'Read ', 'é', 'x'.repeat(65), ''];

describe('a tool name is 1-64 ASCII letters, digits, _ or -', () => {
  it.each(LOOKALIKES)('refused from a plugin\'s describe, an Extism tool and a JS tool: %j', (name) => {
    const info = pluginInfoOf({ name: 'p', protocolVersion: PROTOCOL_VERSION, version: '1.0.0', hooks: [], tools: [{ name }] });
    expect(info.ok).toBe(false);
    expect(extismToolSchema().safeParse({ name }).success).toBe(false);
    expect(() => tool(name, 'd', z.object({}), () => 'x')).toThrow(/^tool name .* must match/);
  });

  it('accepted where every source agrees', () => {
    const name = 'lint_fix-2';
    expect(pluginInfoOf({ name: 'p', protocolVersion: PROTOCOL_VERSION, version: '1.0.0', hooks: [], tools: [{ name }] }).ok).toBe(true);
    expect(extismToolSchema().safeParse({ name }).success).toBe(true);
    expect(tool(name, 'd', z.object({}), () => 'x').name).toBe(name);
  });
});
