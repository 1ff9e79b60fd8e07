// rv15: the hook answer text caps apply to JS and shell hooks too (test/hooks/rv15-caps.ts; xrt twin in test/xrt/rv15.xrt.ts).
import { it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { createShellHook, shellHooks } from '../../host/shell/hook.js';
import { hookTextCaps } from './rv15-caps.js';

it('JS and shell hooks: reason/systemMessage past 131,072 and additionalContext past 262,144 are BAD_OUTPUT; at the cap kept', async () => {
  await hookTextCaps({ createHost, scriptedModel, createShellHook, shellHooks } as never);
}, 60_000);
