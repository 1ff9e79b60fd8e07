/**
 * The permission question for one tool call of a batch (host/agent/tool-batch.ts): what
 * `resolvePermission` asks, with the PermissionRequest and Notification hooks it may fire.
 */
import type { Emit, StoppedBy } from '../events/types.js';
import { dispatch, type ChainOutcome, type DispatchContext } from '../hooks/dispatch.js';
import type { HookCommon } from '../hooks/types.js';
import type { PermissionCall } from '../permissions/resolve.js';
import { normalizeToolInput, type LoopConfig } from './config.js';
import { hookInput } from './hook-input.js';
import { permissionRequestInput, permissionStop } from './permission-answer.js';
import type { ToolCallRequest } from './model-turn.js';

/** Everything the steps of one batch share (host/agent/tool-batch.ts), the permission question included. */
export interface BatchScope {
  readonly config: LoopConfig;
  readonly emit: Emit;
  readonly signal: AbortSignal;
  readonly ctx: DispatchContext;
  readonly common: HookCommon;
}

/**
 * The permission question for one call. A class, so that asking it creates no closures per tool
 * call (`runHooks` and `notify` are methods; under tsx each named closure also costs a `__name`).
 */
export class PermissionQuestion implements PermissionCall {
  readonly toolName: string;
  readonly toolUseId: string;
  /** Set when a PermissionRequest hook stopped the turn (`continue: false`, a deny with `interrupt`): the batch ends. */
  stop: StoppedBy | undefined = undefined;

  constructor(
    private readonly b: BatchScope,
    call: ToolCallRequest,
    readonly modelInput: Record<string, unknown>,
    readonly input: Record<string, unknown>,
    readonly hookDecision: PermissionCall['hookDecision'],
  ) {
    this.toolName = call.name;
    this.toolUseId = call.id;
  }

  // The batch's, read where asked rather than copied into every question.
  get signal(): AbortSignal {
    return this.b.signal;
  }

  get emit(): Emit {
    return this.b.emit;
  }

  get cwd(): string {
    return this.b.config.cwd;
  }

  get agentId(): string | undefined {
    return this.b.config.agentId;
  }

  get parentToolUseId(): string | undefined {
    return this.b.config.parentToolUseId;
  }

  normalize(toolInput: Record<string, unknown>): Record<string, unknown> {
    return normalizeToolInput(this.b.config, toolInput);
  }

  async runHooks(toolInput: Record<string, unknown>): Promise<ChainOutcome> {
    const { toolName, toolUseId, b } = this;
    const out = await dispatch(b.ctx, 'PermissionRequest', () => permissionRequestInput(b.common, toolName, toolUseId, toolInput));
    // Like every hook's (docs/hooks.md rule 6): it reaches the next model call.
    b.config.pendingContext.push(...out.additionalContext);
    this.stop = permissionStop(out);
    return out;
  }

  async notify(message: string): Promise<void> {
    // `title`: Claude Code's short heading for the same notice (a desktop notifier shows it above the message).
    const own = { hook_event_name: 'Notification', message, title: 'Permission needed', level: 'info', notification_type: 'permission_prompt' } as const;
    const n = await dispatch(this.b.ctx, 'Notification', () => hookInput(this.b.common, own));
    this.b.config.pendingContext.push(...n.additionalContext);
  }
}
