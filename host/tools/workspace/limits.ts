/** Caps of the workspace tools: each bounds what one call may read, walk, print or run. */
export interface WorkspaceLimits {
  /** Largest file Read, Edit or Grep opens, and largest Write. */
  maxFileBytes: number;
  /** Lines Read shows when no limit is given. */
  maxReadLines: number;
  /** Entries Glob and Grep visit in one call. */
  maxWalkEntries: number;
  /** Paths Glob returns; matching lines (or files) Grep returns. */
  maxResults: number;
  /** Bytes of stdout and of stderr a Bash call returns (the rest is cut, and said so). */
  maxOutputBytes: number;
  /** Default and largest Bash timeout, ms. */
  bashTimeoutMs: number;
  bashMaxTimeoutMs: number;
}

export const DEFAULT_WORKSPACE_LIMITS: WorkspaceLimits = {
  maxFileBytes: 4 << 20,
  maxReadLines: 2000,
  maxWalkEntries: 50_000,
  maxResults: 500,
  maxOutputBytes: 30_000,
  bashTimeoutMs: 120_000,
  bashMaxTimeoutMs: 600_000,
};
