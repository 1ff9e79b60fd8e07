/**
 * A plugin contribution with its hooks wrapped: what the CLI puts around the
 * hooks of a `wasmhooks.json` under workspace trust (red14). Tools, health
 * and logs pass through.
 */
import type { PluginContribution } from '../tools/types.js';
import type { HookHandler, HookInput, HookResult, HookRunContext } from './types.js';

type Around = (handler: HookHandler, input: HookInput, ctx: HookRunContext) => Promise<HookResult>;

function wrapped(contribution: PluginContribution, around: Around): PluginContribution {
  const wrap = (handler: HookHandler): HookHandler => ({
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
    run: (input, ctx) => around(handler, input, ctx),
  });
  const out: PluginContribution = {
    name: contribution.name,
    hooks: () => contribution.hooks().map(wrap),
    tools: () => contribution.tools(),
  };
  if (contribution.onHealth) out.onHealth = (listener) => contribution.onHealth!(listener);
  if (contribution.onLog) out.onLog = (listener) => contribution.onLog!(listener);
  return out;
}

/**
 * `contribution` with every hook's `allow` turned into `continue` (and a
 * `systemMessage` saying why: `note`), so the call still meets the permission
 * step (rules, mode, the question). For the plugins of a config the user has
 * not trusted: the file came with a cloned repository, and its plugin's
 * `allow` skipped the question unasked.
 */
export function withoutApproval(contribution: PluginContribution, note: string): PluginContribution {
  return wrapped(contribution, async (handler, input, ctx) => {
    const result = await handler.run(input, ctx);
    if (!result.ok || result.output.decision !== 'allow') return result;
    // The rewrite stays (the question shows the input that would run); only the approval goes.
    const { decision: _allow, reason: _reason, ...rest } = result.output;
    const message = rest.systemMessage ? `${rest.systemMessage}\n${note}` : note;
    return { ...result, output: { ...rest, systemMessage: message } };
  });
}

/**
 * `contribution` whose hooks each run only once `check` finds nothing wrong;
 * otherwise the call fails (LOAD_FAILED, with `check`'s reason) and the
 * hook's failure policy decides. For shell hooks of a trusted config: the
 * script they run is read at every call, and may have changed since the
 * trust was checked (a pull while `serve` runs).
 */
export function checkedBeforeEachRun(contribution: PluginContribution, check: () => Promise<string | undefined>): PluginContribution {
  return wrapped(contribution, async (handler, input, ctx) => {
    const problem = await check();
    if (problem === undefined) return handler.run(input, ctx);
    return { ok: false, failure: { code: 'LOAD_FAILED', message: problem } };
  });
}
