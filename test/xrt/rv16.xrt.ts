// rv16: review of conf3 (model streams, MCP, wire codecs) on Node, Deno and Bun against the build.
// Vitest twins: test/guest/rv16.test.ts (UTF-8 edges), test/models/rv16-streams.test.ts (provider streams).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { aiSdkModel, anthropicModel, createHost, createSandbox, eventGrammarViolations, openaiModel } from '../../dist/index.js';
import { nameRequest, utf8Cases } from '../guest/utf8-cases.ts';
import { runCase, type Api } from '../models/stream-conformance.ts';
import { rv16AiSdkCases, rv16Cases, rv16OllamaCases, rv16WideCases } from '../models/rv16-streams.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const bytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16));

export const scenarios: Record<string, () => Promise<void>> = {
  'provider streams: a repeated finish reason makes each OpenAI call once; Ollama calls all at index 0 are calls of their own; an escape cut between surrogates reads whole; a repeated Anthropic stop or AI SDK call': async () => {
    const failed: string[] = [];
    for (const c of [...rv16Cases, ...rv16OllamaCases, ...rv16WideCases, ...rv16AiSdkCases]) {
      const problems = await runCase(api, c);
      if (problems.length > 0) failed.push(`${c.name}:\n  ${problems.join('\n  ')}`);
    }
    assert.deepEqual(failed, []);
  },
  'wire codec: both SDK codecs accept a string field exactly when it is well-formed UTF-8, at every edge of table 3-7 (5-byte forms, CESU-8 refused; noncharacters kept)': async () => {
    const cases = utf8Cases();
    for (const path of ['test/fixtures/codec-echo/build/codec-echo.wasm', 'test/fixtures/vector-echo-c/build/vector-echo-c.wasm']) {
      // Verdicts, not speed: a deadline a loaded machine cannot miss.
      const sandbox = await createSandbox(new Uint8Array(await readFile(new URL(`../../${path}`, import.meta.url))), { limits: { timeoutMs: 10_000 } });
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
