// Writes schema/wasmhooks.schema.json from the zod schema (npm run gen:schema).
// test/config/schema.test.ts fails when the committed file is stale.
import { writeFile } from 'node:fs/promises';
import { configJsonSchema } from '../host/config/schema.js';

export const schemaText = () => `${JSON.stringify(configJsonSchema(), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('./wasmhooks.schema.json', import.meta.url);
  await writeFile(target, schemaText());
  console.log(`wrote ${target.pathname}`);
}
