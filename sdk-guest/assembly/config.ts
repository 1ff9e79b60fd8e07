// Reading the operator's config values. The host passes only the keys the
// operator granted; a key the plugin asked for with `.requestConfigKey()`
// must be granted or the plugin does not load, so such a key is always there.

import { Config } from "@extism/as-pdk";

/**
 * The value of config key `key`, or null when it is not set, empty or not granted.
 * Example: `const token = config("token"); if (token === null) return deny("no token configured");`
 */
export function config(key: string): string | null {
  return Config.get(key);
}

/**
 * The value of config key `key`, or `fallback` when it is not set, not granted
 * or only whitespace. The value is returned as set (not trimmed).
 * Example: `const pattern = configOr("test_pattern", "npm test");`
 */
export function configOr(key: string, fallback: string): string {
  const value = Config.get(key);
  return value !== null && value.trim().length > 0 ? value : fallback;
}
