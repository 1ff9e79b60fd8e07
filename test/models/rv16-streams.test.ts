// rv16's stream cases (rv16-streams.ts) against the sources; on Node, Deno and Bun against dist/ in test/xrt/rv16.xrt.ts.
import { describe, expect, it } from 'vitest';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel } from '../../host/index.js';
import { runCase } from './stream-conformance.js';
import { rv16AiSdkCases, rv16Cases, rv16OllamaCases, rv16WideCases } from './rv16-streams.js';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations };

describe('provider streams (rv16)', () => {
  for (const c of [...rv16Cases, ...rv16OllamaCases, ...rv16WideCases, ...rv16AiSdkCases]) {
    it(c.name, async () => {
      expect(await runCase(api, c)).toEqual([]);
    });
  }
});
