// rv16: review of conf3 (model streams, MCP, wire codecs) on Node, Deno and Bun against the build.
// Vitest twins: test/guest/rv16.test.ts (UTF-8 edges).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createSandbox } from '../../dist/index.js';
import { nameRequest, utf8Cases } from '../guest/utf8-cases.ts';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const bytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));

export const scenarios: Record<string, () => Promise<void>> = {
  'wire codec: both SDK codecs accept a string field exactly when it is well-formed UTF-8, at every edge of table 3-7 (5-byte forms, CESU-8 refused; noncharacters kept)': async () => {
    const cases = utf8Cases();
    for (const path of ['test/fixtures/codec-echo/build/codec-echo.wasm', 'test/fixtures/vector-echo-c/build/vector-echo-c.wasm']) {
      const sandbox = await createSandbox(new Uint8Array(await readFile(new URL(`../../${path}`, import.meta.url))));
      const wrong: string[] = [];
      try {
        for (const [h, ok] of cases) {
          const input = nameRequest(h);
          const outcome = await sandbox.call('echo', new Uint8Array([...new TextEncoder().encode('ToolRequest\n'), ...bytes(input)]));
          const got = outcome.ok ? hex(outcome.output) : /string field is not valid UTF-8/.test(JSON.stringify(outcome)) ? 'refused' : JSON.stringify(outcome);
          if (got !== (ok ? input : 'refused') && wrong.length < 8) wrong.push(`${h}: ${got}`);
        }
      } finally {
        await sandbox.close();
      }
      assert.deepEqual(wrong, [], path);
    }
  },
};
