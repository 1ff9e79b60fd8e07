// Review (rv7) of red8's timer cap: scriptedModel's per-chunk delay still went to setTimeout as given,
// so `delayMs: Infinity` (or anything past 2^31 - 1 ms), a model that should answer only when aborted,
// answered after 1 ms.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';

describe('scriptedModel delays past setTimeout\'s range', () => {
  it('delayMs: Infinity waits for the abort, never fires after 1 ms', async () => {
    for (const delayMs of [Number.POSITIVE_INFINITY, 2 ** 31]) {
      const session = createHost({ model: scriptedModel({ turns: [{ text: 'too soon' }], delayMs }) }).session();
      const timer = setTimeout(() => session.abort(), 150);
      const result = await session.prompt('hi');
      clearTimeout(timer);
      expect(result.subtype, String(delayMs)).toBe('aborted');
      expect(result.text).toBe('');
    }
  });
});
