// conf4 stream cases (conf4-streams.ts) against the sources; the same cases run on Node, Deno and Bun
// against dist/ in test/xrt/conf4.xrt.ts.
import { describe, expect, it } from 'vitest';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel } from '../../host/index.js';
import { conf4Cases } from './conf4-streams.js';
import { runCase } from './stream-conformance.js';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations };

describe('conf4: what a turn sends back, and AI SDK input deltas', () => {
  for (const c of conf4Cases) {
    it(c.name, async () => {
      expect(await runCase(api, c)).toEqual([]);
    });
  }
});
