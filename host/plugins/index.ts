export { loadPlugin } from './load.js';
export { WasmPlugin } from './plugin.js';
export type { PluginOptions } from './options.js';
export type { PluginSource } from './source.js';
export type { Grants } from './grants.js';
export { sha256 } from '../sandbox/digest.js';
