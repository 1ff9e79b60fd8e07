// A session store seen through a Proxy with some of its methods wrapped (late, stalled, failing), the rest
// bound as they are: the one implementation behind late-writes.ts, fence-stall.ts, rv15-lease.ts and
// rv15-stall.ts, shared by vitest and test/xrt.
type Call = (...a: unknown[]) => Promise<unknown>;

/** `store` with each method named in `methods` replaced by `wrap(it)`; `values`: properties read as given (`shared`). */
export function interceptStore<S extends object>(store: S, methods: readonly PropertyKey[], wrap: (call: Call) => Call, values: Record<string, unknown> = {}): S {
  const names = new Set(methods);
  return new Proxy(store, {
    get(target, key) {
      if (typeof key === 'string' && Object.hasOwn(values, key)) return values[key];
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const bound = (value as Call).bind(target);
      return names.has(key) ? wrap(bound) : bound;
    },
  });
}
