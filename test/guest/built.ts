// Locating wasm built by `npm run build:plugins`; a missing build fails with the fix.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function builtWasm(relativeToRepo: string): string {
  const path = fileURLToPath(new URL(`../../${relativeToRepo}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`${relativeToRepo} is missing: run \`npm run build:plugins\` first`);
  return path;
}
