/** What `POST /session` takes and what the API shows of a session (host/server/sessions.ts keeps them). */
import { z } from 'zod';
import { HOOK_EVENT_NAMES, type HookEventName } from '../hooks/types.js';
import type { PermissionMode } from '../permissions/types.js';
import type { SessionRecord, StoredResult } from '../store/types.js';
import type { ControlRequest } from './control-types.js';

/**
 * A session's options, as `POST /session` takes them and as they are stored. A stored record is checked
 * against it again each time a session is built from it: a record is outside input (a data directory can come
 * with a cloned repository, a Redis hash can be written by anyone with its password).
 */
export const sessionOptionsSchema = z
  .object({
    permissionMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk']).optional(),
    systemPrompt: z.string().max(1_000_000).optional(),
    maxTurns: z.number().int().min(1).max(1000).optional(),
    hookCallbacks: z.array(z.enum(HOOK_EVENT_NAMES)).max(HOOK_EVENT_NAMES.length).optional(),
  })
  .strict();

export const createSessionSchema = sessionOptionsSchema.extend({ title: z.string().max(200).optional() }).strict();

export interface CreateSessionInput {
  title?: string;
  /** Hook events this session's remote client answers as `hook_callback` control requests. */
  hookCallbacks?: HookEventName[];
  permissionMode?: PermissionMode;
  systemPrompt?: string;
  maxTurns?: number;
}

/** A session as the API shows it. */
export interface SessionView {
  id: string;
  title?: string;
  state: string;
  running: boolean;
  createdAt: number;
  prompts: number;
  pendingControlRequests: number;
  lastResult?: StoredResult;
  /** The session cleared to start this one (`POST /session/:id/clear`). */
  clearedFrom?: string;
  /** Set when not `default`: how its tool calls are approved (`bypassPermissions`: none is asked). */
  permissionMode?: PermissionMode;
}

/** What the API shows of a stored session, with its live object here if any (its state and whether it runs). */
export function sessionView(r: SessionRecord, live: { session: { state: string }; running: boolean } | undefined, controls: readonly ControlRequest[]): SessionView {
  return {
    id: r.id,
    ...(r.title ? { title: r.title } : {}),
    state: live?.session.state ?? (r.running ? 'running' : 'idle'),
    running: r.running !== undefined || live?.running === true,
    createdAt: r.createdAt,
    prompts: r.prompts,
    pendingControlRequests: controls.length,
    ...(r.lastResult ? { lastResult: r.lastResult } : {}),
    ...(r.clearedFrom ? { clearedFrom: r.clearedFrom } : {}),
    ...(r.options.permissionMode && r.options.permissionMode !== 'default' ? { permissionMode: r.options.permissionMode } : {}),
  };
}
