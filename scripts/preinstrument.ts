/**
 * Instruments every first-party plugin at build time (run by
 * `npm run build:plugins` after plugins/first-party.json is written):
 * each plugin is loaded by name with the default options, exactly as
 * `loadPlugin({ name })` does at run time, and the instrumented bytes it
 * compiled are written beside the plugin (`<name>.instrumented.wasm`) and
 * listed by compiled-cache key in plugins/prebuilt.json. host/sandbox/compiled.ts
 * says why these files are safe to use and when they are used.
 * Usage: npx tsx scripts/preinstrument.ts
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadPlugin } from '../host/plugins/index.js';
import { clearCompiledCache, compiledEntries } from '../host/sandbox/compiled.js';

const plugins = fileURLToPath(new URL('../plugins/', import.meta.url));
const out = `${plugins}prebuilt.json`;
// Never build from the last run's output: without the list, every plugin below is instrumented here.
rmSync(out, { force: true });

const manifest = JSON.parse(readFileSync(`${plugins}first-party.json`, 'utf8')) as Record<string, { file: string }>;
const prebuilt: Record<string, { file: string; sha256: string; bytes: number }> = {};
for (const [name, entry] of Object.entries(manifest)) {
  clearCompiledCache();
  try {
    // Config grants change neither the bytes nor the instrument options; path-guard does not load without its one.
    const plugin = await loadPlugin({ name }, { grants: { configKeys: ['workspace'] }, config: { workspace: plugins } });
    await plugin.close();
  } catch (error) {
    console.log(`not pre-instrumented ${name}: it does not load with the default options (${(error as Error).message})`);
    continue;
  }
  const entries = await compiledEntries();
  if (entries.length !== 1) throw new Error(`${name}: expected one compiled module, found ${entries.length}`);
  const [key, bytes] = entries[0]!;
  const file = entry.file.replace(/\.wasm$/, '.instrumented.wasm');
  writeFileSync(`${plugins}${file}`, bytes);
  prebuilt[key] = { file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  console.log(`pre-instrumented ${file}  ${(bytes.length / 1024).toFixed(1)} KiB`);
}
writeFileSync(out, `${JSON.stringify(prebuilt, null, 2)}\n`);
