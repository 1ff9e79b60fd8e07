// Locating wasm built by `npm run build:plugins`; a missing build fails with the fix.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';

export function builtWasm(relativeToRepo: string): string {
  const path = fileURLToPath(new URL(`../../${relativeToRepo}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`${relativeToRepo} is missing: run \`npm run build:plugins\` first`);
  return path;
}

/** Both SDK codecs' echo fixtures (AssemblyScript codec-echo, C vector-echo-c), loaded for the describe block that calls this. */
export function echoCodecs(): { readonly as: TestPlugin; readonly c: TestPlugin } {
  const loaded = {} as { as: TestPlugin; c: TestPlugin };
  beforeAll(async () => {
    loaded.as = await loadForTest(builtWasm('test/fixtures/codec-echo/build/codec-echo.wasm'));
    loaded.c = await loadForTest(builtWasm('test/fixtures/vector-echo-c/build/vector-echo-c.wasm'));
  });
  afterAll(() => {
    loaded.as?.close();
    loaded.c?.close();
  });
  return loaded;
}
