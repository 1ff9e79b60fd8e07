// conf3: conformance of the external protocols on Node, Deno and Bun against the build.
// Provider streams: every case of test/models/stream-conformance.ts through a whole prompt.
import assert from 'node:assert/strict';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel } from '../../dist/index.js';
import { cases, runCase, type Api } from '../models/stream-conformance.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;

export const scenarios: Record<string, () => Promise<void>> = {
  'provider streams: each shape the SDKs allow mid-stream, and broken ones, map to the right events or a typed error': async () => {
    const failed: string[] = [];
    for (const c of cases) {
      const problems = await runCase(api, c);
      if (problems.length > 0) failed.push(`${c.name}:\n  ${problems.join('\n  ')}`);
    }
    assert.deepEqual(failed, []);
  },
};
