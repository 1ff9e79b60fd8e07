/**
 * A plugin contribution whose hooks cannot approve: their `allow` (PreToolUse,
 * PermissionRequest) counts as no answer, so the call still meets the
 * permission step (rules, mode, the question). The CLI wraps the plugins of a
 * `wasmhooks.json` the user has not trusted (red14): the file came with a
 * cloned repository, and its plugin's `allow` skipped the question unasked.
 */
import type { PluginContribution } from '../tools/types.js';
import type { HookHandler, HookResult } from './types.js';

function wrap(handler: HookHandler, note: string): HookHandler {
  return {
    id: handler.id,
    name: handler.name,
    kind: handler.kind,
    event: handler.event,
    ...(handler.plugin !== undefined ? { plugin: handler.plugin } : {}),
    ...(handler.matcher !== undefined ? { matcher: handler.matcher } : {}),
    ...(handler.sessions !== undefined ? { sessions: handler.sessions } : {}),
    failurePolicy: handler.failurePolicy,
    timeoutMs: handler.timeoutMs,
    ...(handler.enforcesTimeout !== undefined ? { enforcesTimeout: handler.enforcesTimeout } : {}),
    async run(input, ctx): Promise<HookResult> {
      const result = await handler.run(input, ctx);
      if (!result.ok || result.output.decision !== 'allow') return result;
      // The rewrite stays (the question shows the input that would run); only the approval goes.
      const { decision: _allow, reason: _reason, ...rest } = result.output;
      const message = rest.systemMessage ? `${rest.systemMessage}\n${note}` : note;
      return { ...result, output: { ...rest, systemMessage: message } };
    },
  };
}

/**
 * `contribution` with every hook's `allow` turned into `continue` (and a
 * `systemMessage` saying why: `note`). Tools, health and logs pass through.
 */
export function withoutApproval(contribution: PluginContribution, note: string): PluginContribution {
  const out: PluginContribution = {
    name: contribution.name,
    hooks: () => contribution.hooks().map((h) => wrap(h, note)),
    tools: () => contribution.tools(),
  };
  if (contribution.onHealth) out.onHealth = (listener) => contribution.onHealth!(listener);
  if (contribution.onLog) out.onLog = (listener) => contribution.onLog!(listener);
  return out;
}
