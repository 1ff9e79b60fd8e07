// The conversation caps (maxMessages, maxConversationChars) in wasmhooks.json: `run` and `serve`
// (where MCP servers and plugins answer) can set them as createHost can.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/load.js';

const where = { file: '<inline>', dir: '/tmp' };

describe('the conversation caps in wasmhooks.json', () => {
  it('are read', () => {
    const config = parseConfig({ maxMessages: 500, maxConversationChars: 1_000_000 }, where);
    expect(config).toMatchObject({ maxMessages: 500, maxConversationChars: 1_000_000 });
  });

  it('refuse what createHost would', () => {
    expect(() => parseConfig({ maxMessages: 0 }, where)).toThrow(/maxMessages: expected a positive integer/);
    expect(() => parseConfig({ maxConversationChars: 1.5 }, where)).toThrow(/maxConversationChars/);
  });
});
