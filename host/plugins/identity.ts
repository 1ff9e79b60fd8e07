/**
 * A plugin's identity strings — its name, version and description, from `describe` or from its file
 * name — are a stranger's text that the host shows everywhere: in logs, the terminal, the console
 * page, error messages, `hook.*` events and the `<hook-context from="…">` frame the model reads. So
 * they are checked at load, not escaped at each use: a name is a short slug (no look-alike, no
 * markup, no terminal control), a version is semver-shaped, a description is printable text on one
 * line. A plugin that fails the check does not load (`INVALID_PLUGIN_IDENTITY`, naming the field).
 */
import { WasmhooksError } from '../errors.js';
import { reservedToolError, reservedToolName } from '../tools/reserved.js';
import { firstUnsafeChar } from '../unsafe-chars.js';

const PLUGIN_NAME_MAX = 64;
/** A plugin's name; the options that name a plugin (`pluginName`) use it too, refused there, not at load. */
export const PLUGIN_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const PLUGIN_NAME_RULE = '1-64 lower-case letters, digits, ".", "_" or "-", a letter or digit first';
/** Semver's characters (`1.2.3-rc.1+build.5`), not its grammar: a plugin's own scheme (`2024.06`) still loads. */
const PLUGIN_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]*$/;
const PLUGIN_VERSION_MAX = 64;
const PLUGIN_DESCRIPTION_MAX = 4096;

export type IdentityField = 'name' | 'version' | 'description';

/** A plugin whose name, version or description is not what the host can show as it is. */
export class PluginIdentityError extends WasmhooksError {
  constructor(
    readonly field: IdentityField,
    readonly problem: string,
    origin: string,
  ) {
    super('INVALID_PLUGIN_IDENTITY', `plugin ${origin}: its ${field} ${problem}`);
  }
}

/** What is wrong with one identity field, or undefined. */
function problemOf(field: IdentityField, value: string): string | undefined {
  // Shown quoted, escaped and cut: the message itself is printed.
  const shown = JSON.stringify(value.slice(0, 80)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  switch (field) {
    case 'name':
      if (value.length === 0) return 'is empty';
      if (value.length > PLUGIN_NAME_MAX) return `is ${value.length} characters; the limit is ${PLUGIN_NAME_MAX}`;
      return PLUGIN_NAME_PATTERN.test(value) ? undefined : `${shown} must match ${PLUGIN_NAME_PATTERN.source} (lower-case letters, digits, ".", "_", "-"; a letter or digit first)`;
    case 'version':
      // Optional in the protocol: an empty version is "not given".
      if (value.length > PLUGIN_VERSION_MAX) return `is ${value.length} characters; the limit is ${PLUGIN_VERSION_MAX}`;
      return value === '' || PLUGIN_VERSION.test(value) ? undefined : `${shown} must be semver-shaped: letters, digits, ".", "+", "-" (as 1.2.3-rc.1+build.5)`;
    case 'description': {
      if (value.length > PLUGIN_DESCRIPTION_MAX) return `is ${value.length} characters; the limit is ${PLUGIN_DESCRIPTION_MAX}`;
      // One line of printable text: a newline or tab would let it fake the next line of a listing.
      const bad = /[\t\n]/.exec(value)?.[0] ?? firstUnsafeChar(value);
      if (bad === undefined) return undefined;
      const code = bad.length === 1 ? `\\u${bad.charCodeAt(0).toString(16).padStart(4, '0')}` : bad;
      return `holds ${code} (a control, format or invisible character): it must be printable text on one line`;
    }
    default: {
      const never: never = field;
      return never;
    }
  }
}

/**
 * Throws PluginIdentityError for the first field that fails, or RESERVED_TOOL_NAME for a tool under
 * one of the host's own tool names (tools/reserved.ts): refused at load, before any host sees it.
 */
export function checkPluginIdentity(info: { name: string; version?: string; description?: string; tools: readonly { name: string }[] }, origin: string): void {
  for (const [field, value] of [['name', info.name], ['version', info.version ?? ''], ['description', info.description ?? '']] as const) {
    const problem = problemOf(field, value);
    if (problem !== undefined) throw new PluginIdentityError(field, problem, origin);
  }
  for (const t of info.tools) {
    const builtIn = reservedToolName(t.name);
    if (builtIn !== undefined) throw reservedToolError(t.name, builtIn, `plugin ${origin} (${info.name})`);
  }
}
