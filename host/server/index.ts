export { createServer, type WasmhooksServer } from './app.js';
export { resolveServerOptions, isLoopback, type ServerOptions, type ResolvedServerOptions } from './options.js';
export { ApiError, type ApiErrorBody, type ApiErrorCode } from './errors.js';
export { ControlBroker, remoteCanUseTool, type ControlOutcome } from './control.js';
export type { ControlRequest, ControlSubtype, ControlPayloads, ControlResponses } from './control-types.js';
export type { ServerEvent, ServerEventType, StreamEvent, GlobalEnvelope } from './events.js';
export type { ServerHost, ServerSession, ServerSessionOptions, ServerPlugin } from './types.js';
export type { SessionView } from './sessions.js';
export type { PluginView } from './plugins.js';
