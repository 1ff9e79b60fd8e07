// A session store whose every write answers `ms` late (a store across a slow network), or fails after
// the wait: shared by vitest (end-after-write.test.ts) and test/xrt (fix3.xrt.ts).
import type { SessionStore } from '../../host/store/types.js';
import { interceptStore } from './intercept.ts';

export const WRITES = ['appendMessages', 'replaceMessages', 'update', 'sync'] as const;

/** `store` with each write (`appendMessages`, `replaceMessages`, `update`, `sync`) late by `ms`, then failing when `fail`. */
export function lateWrites(store: SessionStore, ms: number, fail = false): SessionStore {
  return interceptStore(store, WRITES, (call) => async (...a) => {
    await new Promise((r) => setTimeout(r, ms));
    if (fail) throw new Error('store down');
    return call(...a);
  });
}
