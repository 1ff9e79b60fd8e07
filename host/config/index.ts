export { loadConfig, parseConfig, findConfig, CONFIG_FILE_NAME, type ResolvedConfig } from './load.js';
export { materializeConfig, mergeHooks, importHookModule, loadConfiguredPlugin, type ConfigParts, type MaterializeOptions } from './materialize.js';
export { configSchema, configJsonSchema, type WasmhooksConfigFile } from './schema.js';
