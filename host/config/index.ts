export { loadConfig, parseConfig, type ResolvedConfig } from './load.js';
export { materializeConfig, type ConfigParts, type MaterializeOptions } from './materialize.js';
export type { WasmhooksConfigFile } from './schema.js';
