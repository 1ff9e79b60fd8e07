// fix3 item 3 (vitest twin of the scenario in test/xrt/fix3.xrt.ts): a redactor matched to the sub-agent tool
// covers the sub-agent's live inner events.
import { describe, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { subagentRedaction } from './subagent-redaction.js';

const lib = { createHost, scriptedModel, tool, eventGrammarViolations } as never;

describe('a PostToolUse redactor matched to the agent tool', () => {
  it('withholds the secret from every live event of the sub-agent (and the grammar holds)', async () => {
    await subagentRedaction(lib);
  });
  it('without it, the same run shows the secret (the check can fail)', async () => {
    await subagentRedaction(lib, false);
  });
});
