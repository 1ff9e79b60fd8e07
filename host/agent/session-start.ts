/**
 * SessionStart, wherever it fires (a session's first prompt, after a compaction, a manual compaction
 * before the first prompt): its hooks' context reaches the next model call.
 */
import { dispatch, type DispatchContext } from '../hooks/dispatch.js';
import type { HookInputOf } from '../hooks/types.js';
import type { LoopConfig } from './config.js';
import { hookCommon, hookInput } from './hook-input.js';

export type SessionStartSource = HookInputOf<'SessionStart'>['source'];

/** Fires SessionStart with `source` and queues its hooks' context for the next model call. */
export async function startSession(ctx: DispatchContext, config: LoopConfig, source: SessionStartSource): Promise<void> {
  const start = await dispatch(ctx, 'SessionStart', () => hookInput(hookCommon(config, 0), { hook_event_name: 'SessionStart', source }));
  config.pendingContext.push(...start.additionalContext);
}
