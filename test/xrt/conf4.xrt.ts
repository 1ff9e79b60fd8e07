// conf4: conformance on Node, Deno and Bun against the build. What a turn sends back
// (test/models/conf4-streams.ts through a whole prompt).
import assert from 'node:assert/strict';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel } from '../../dist/index.js';
import { runCase, type Api } from '../models/stream-conformance.ts';
import { conf4Cases } from '../models/conf4-streams.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;

export const scenarios: Record<string, () => Promise<void>> = {
  'provider streams: provider metadata, signed and redacted thinking and tool results go back as each provider accepts; whitespace text does not; an unnamed AI SDK input delta is BAD_STREAM': async () => {
    const failed: string[] = [];
    for (const c of conf4Cases) {
      const problems = await runCase(api, c);
      if (problems.length > 0) failed.push(`${c.name}:\n  ${problems.join('\n  ')}`);
    }
    assert.deepEqual(failed, []);
  },
};
