// Provider stream conformance cases (stream-conformance.ts) against the sources; the same cases run
// on Node, Deno and Bun against dist/ in test/xrt/conf3.xrt.ts.
import { describe, expect, it } from 'vitest';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel } from '../../host/index.js';
import { cases, runCase } from './stream-conformance.js';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations };

describe('provider streams: each shape its SDK allows mid-stream, and broken ones, through a whole prompt', () => {
  for (const c of cases) {
    it(c.name, async () => {
      expect(await runCase(api, c)).toEqual([]);
    });
  }
});
