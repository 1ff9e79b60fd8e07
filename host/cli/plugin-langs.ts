/** The languages `plugin new` scaffolds in (apart from the command, so `--help` lists them without loading it). */
export const PLUGIN_LANGS = ['assemblyscript', 'c'] as const;
export type PluginLang = (typeof PLUGIN_LANGS)[number];
