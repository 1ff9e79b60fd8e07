// conf5 stream cases (conf5-streams.ts) against the sources; the same run on Node, Deno and Bun
// against dist/ in test/xrt/conf5.xrt.ts.
import { describe, expect, it } from 'vitest';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel } from '../../host/index.js';
import { blankErrorResult, blankUserText, conf5Cases } from './conf5-streams.js';
import { runCase } from './stream-conformance.js';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations };

describe('conf5: a tool input cut by the output token limit, and blank text to AI SDK providers', () => {
  for (const c of conf5Cases) {
    it(c.name, async () => {
      expect(await runCase(api, c)).toEqual([]);
    });
  }

  it('ai-sdk: blank user text and whitespace-only assistant text are left out, a message left empty whole', async () => {
    expect(await blankUserText({ aiSdkModel })).toEqual([]);
  });

  it('a failed tool result without text says which tool failed (Anthropic refuses is_error with empty content), for every provider', async () => {
    expect(await blankErrorResult({ aiSdkModel, anthropicModel, openaiModel })).toEqual([]);
  });
});
