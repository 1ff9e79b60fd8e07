// A scenario that a vitest file runs verbatim on Node: the same scenario function from the same shared
// module, called with the same arguments (the vitest side with the host's source, the xrt side with dist/).
// Under vitest the Node xrt run leaves it to that twin (test/setup/xrt-suite.ts sets
// WASMHOOKS_XRT_NODE_TWINS=skip; run.ts checks the twin still calls the function); Deno and Bun run every
// scenario, and so does run.ts started by hand.

/** `scenario`, marked as run on Node by `file` (from the repository root), which calls `fn` as the scenario does. */
export function nodeTwin<T extends () => Promise<void>>(file: string, fn: string, scenario: T): T {
  return Object.assign(scenario, { nodeTwin: { file, fn } });
}

/** The twin `scenario` was marked with, if any. */
export const twinOf = (scenario: object): { file: string; fn: string } | undefined => (scenario as { nodeTwin?: { file: string; fn: string } }).nodeTwin;
