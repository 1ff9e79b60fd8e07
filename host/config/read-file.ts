/**
 * Reading a file a cloned repository may have put anywhere (its config, a
 * hook module it names): regular files only, opened without blocking (a FIFO
 * hung the CLI; `/dev/zero` was read until memory ran out), at most `maxBytes`.
 */

/** The file's bytes; throws an Error saying why it is no readable file (not a regular file, too large). */
export async function readRegularFile(file: string, maxBytes: number): Promise<Uint8Array> {
  // Loaded here so the main entry stays web-standard (test/package/barrel-clean).
  const { open } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('not a regular file');
    if (info.size > maxBytes) throw new Error(`${info.size} bytes, more than ${maxBytes}`);
    const bytes = await handle.readFile();
    if (bytes.length > maxBytes) throw new Error(`more than ${maxBytes} bytes`);
    return bytes;
  } finally {
    await handle.close();
  }
}
