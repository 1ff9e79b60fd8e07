// A session store whose every write answers `ms` late (a store across a slow network), or fails after
// the wait: shared by vitest (end-after-write.test.ts) and test/xrt (fix3.xrt.ts).
import type { SessionStore } from '../../host/store/types.js';

const WRITES = new Set<PropertyKey>(['appendMessages', 'replaceMessages', 'update', 'sync']);

/** `store` with each write (`appendMessages`, `replaceMessages`, `update`, `sync`) late by `ms`, then failing when `fail`. */
export function lateWrites(store: SessionStore, ms: number, fail = false): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as (...a: unknown[]) => unknown).bind(target);
      if (!WRITES.has(key)) return bound;
      return async (...a: unknown[]) => {
        await new Promise((r) => setTimeout(r, ms));
        if (fail) throw new Error('store down');
        return bound(...a);
      };
    },
  });
}
