/** What `POST /session` takes and what the API shows of a session (host/server/sessions.ts keeps them). */
import type { HookEventName } from '../hooks/types.js';
import type { PermissionMode } from '../permissions/types.js';
import type { StoredResult } from '../store/types.js';

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
}
