// rv15: a nested sub-agent's prompt under a redactor matched to the agent tool (test/agent/rv15-nested-redaction.ts).
import { it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import { nestedSubagentRedaction } from './rv15-nested-redaction.js';

it('a nested sub-agent\'s prompt does not carry what the reviewed sub-agent read', async () => {
  await nestedSubagentRedaction({ createHost, scriptedModel, tool, eventGrammarViolations } as never);
});
