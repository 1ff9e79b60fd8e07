/**
 * How the MCP client checks a tool's `structuredContent` against its
 * `outputSchema`. The SDK's default compiled every listed tool's output
 * schema with Ajv at every `tools/list`: its `pattern`s ran as JavaScript
 * `RegExp`s (`^(a+)+$` against 28 `a`s and a `!` held the event loop for
 * seconds, doubling with each `a`), compile cost was not bounded by the
 * listing's schema caps, and one schema Ajv could not read failed the whole
 * listing, so the server did not start. Output schemas are a stranger's, as
 * input schemas are: checked by the one checker for those (tools/define.ts,
 * RE2, bounded work), compiled at the tool's first result, not at listing.
 */
import type { jsonSchemaValidator, JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { jsonSchemaChecker } from '../tools/define.js';

/** The `jsonSchemaValidator` the host's MCP clients use (see the file's comment). */
export const untrustedOutputSchemas: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let check: ReturnType<typeof jsonSchemaChecker> | undefined;
    return (input) => {
      check ??= jsonSchemaChecker(schema as Record<string, unknown>);
      const r = check(input);
      return r.ok ? { valid: true, data: input as T, errorMessage: undefined } : { valid: false, data: undefined, errorMessage: r.message };
    };
  },
};
