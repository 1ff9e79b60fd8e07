/** Test fixtures written in WAT, compiled with wabt for the rows that use them. */
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';

/**
 * The wasm bytes of a `.wat` file under `test/fixtures/`.
 * @example const echo = await watFixture('hostile/echo.wat');
 */
export async function watFixture(path: string): Promise<Uint8Array<ArrayBuffer>> {
  const source = await readFile(new URL(`../../test/fixtures/${path}`, import.meta.url), 'utf8');
  const parsed = (await wabtInit()).parseWat(path, source, {});
  try {
    return new Uint8Array(parsed.toBinary({}).buffer);
  } finally {
    parsed.destroy();
  }
}
