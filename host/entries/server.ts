// `wasmhooks/server`: the HTTP control plane (the hono app, SSE with replay,
// control requests) and the per-runtime `serve` adapter. Kept out of the main
// entry so `import 'wasmhooks'` loads no HTTP framework: an app that only runs
// guards never pays for hono.
export * from '../server/index.js';
export { serve, runtimeName, type FetchHandler, type ServeOptions, type Served, type RuntimeName } from '../runtime/serve.js';
